package dissem.jgroups;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.jgroups.JChannel;
import org.jgroups.Version;

/**
 * dissem-jgroups: the JGroups baseline (sender or receiver). One JSON object
 * is the last line of stdout; everything else (JGroups' logging included)
 * goes to stderr. Exit 0 completed, 1 not completed, 2 bad arguments.
 */
public final class Main {
    /** Kept strongly reachable: java.util.logging holds loggers weakly. */
    private static final Logger JGROUPS_LOG = Logger.getLogger("org.jgroups");

    private Main() {}

    static String jgroupsVersion() {
        String v = JChannel.class.getPackage().getImplementationVersion();
        return v != null ? v : Version.printVersion();
    }

    public static void main(String[] args) {
        long startNanos = System.nanoTime();
        double startUnix = Node.nowUnix();
        // The real stdout carries only the result line; anything else that
        // prints to System.out (JGroups does, for some settings) goes to stderr.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        System.setOut(System.err);
        System.setProperty("java.net.preferIPv4Stack", "true");
        String level = System.getProperty("dissem.log", "WARNING");
        try {
            JGROUPS_LOG.setLevel(Level.parse(level.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            JGROUPS_LOG.setLevel(Level.WARNING);
        }

        Options opt;
        try {
            opt = Options.parse(args);
        } catch (UsageError e) {
            System.err.println("dissem-jgroups: " + e.getMessage());
            System.err.print(Options.USAGE);
            System.err.flush();
            Runtime.getRuntime().halt(2);
            return;
        }
        setStackProperties(opt);
        Node node = opt.isSender()
            ? new SenderNode(opt, out, startNanos, startUnix)
            : new ReceiverNode(opt, out, startNanos, startUnix);

        Runtime.getRuntime().addShutdownHook(new Thread(node::onSignal, "dissem-signal"));
        Thread limit = new Thread(() -> {
            try {
                long ms = (long) (opt.timeLimit * 1000) - (System.nanoTime() - startNanos) / 1_000_000;
                if (ms > 0) {
                    Thread.sleep(ms);
                }
                node.onTimeLimit();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "dissem-time-limit");
        limit.setDaemon(true);
        limit.start();

        try {
            node.run();
        } catch (Throwable e) {
            System.err.println("dissem-jgroups: " + e);
            e.printStackTrace(System.err);
            node.finish();
        }
        node.finish();
    }

    /** The ${dissem.*} properties of dissem-jgroups.xml. */
    static void setStackProperties(Options o) {
        System.setProperty("dissem.bind_addr", o.bindAddress);
        System.setProperty("dissem.mcast_addr", o.group);
        System.setProperty("dissem.mcast_port", Integer.toString(o.port));
        System.setProperty("dissem.ip_ttl", Integer.toString(o.ttl));
        System.setProperty("dissem.discard_up", Double.toString(o.discardPercent / 100.0));
        System.setProperty("dissem.xmit_interval_ms", Long.toString(o.xmitIntervalMs));
        System.setProperty("dissem.max_xmit_req", Integer.toString(o.maxXmitReq));
        System.setProperty("dissem.join_timeout_ms", Long.toString(o.joinTimeoutMs));
        System.setProperty("dissem.frag_size", Integer.toString(o.fragSize));
        if (o.rateBps > 0) {
            System.setProperty("dissem.rate_max_bytes", Long.toString(o.rateMaxBytes));
            System.setProperty("dissem.rate_period_ms", Long.toString(o.ratePeriodMs));
        }
    }
}
