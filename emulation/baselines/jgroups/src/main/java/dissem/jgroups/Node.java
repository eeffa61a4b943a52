package dissem.jgroups;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.DISCARD;
import org.jgroups.util.UUID;
import org.jgroups.protocols.pbcast.NAKACK2;

/**
 * What both roles share: the channel, the time limit, the one JSON result
 * (printed once, as the last line of the real stdout) and the bounded exit.
 */
abstract class Node implements Receiver {
    /** Channel close (leave) is given this long before the process halts anyway. */
    static final long CLOSE_BOUND_MS = 3000;

    final Options opt;
    final PrintStream out;
    final long processStartNanos;
    final double processStartUnix;
    final AtomicBoolean finished = new AtomicBoolean(false);
    volatile JChannel channel;
    volatile View view;
    volatile boolean interrupted;
    volatile boolean timedOut;

    Node(Options opt, PrintStream out, long processStartNanos, double processStartUnix) {
        this.opt = opt;
        this.out = out;
        this.processStartNanos = processStartNanos;
        this.processStartUnix = processStartUnix;
    }

    /** Runs the role; returns the exit code (the result is printed by finish). */
    abstract void run() throws Exception;

    /** The result object as it stands now (called once, under the lock). */
    abstract Map<String, Object> result();

    /** Whether the role's goal was reached (exit 0). */
    abstract boolean succeeded();

    static double nowUnix() {
        Instant now = Instant.now();  // microseconds on Linux
        return now.getEpochSecond() + now.getNano() / 1e9;
    }

    double sinceStart() {
        return (System.nanoTime() - processStartNanos) / 1e9;
    }

    /** Seconds left before --time-limit (counted from process start). */
    double remaining() {
        return opt.timeLimit - sinceStart();
    }

    JChannel openChannel() throws Exception {
        String stack = opt.stackFile != null ? opt.stackFile : "dissem-jgroups.xml";
        JChannel ch = new JChannel(stack);
        ch.setName(opt.role + "-" + opt.nodeId);
        // Addresses that sort receivers by node id and the sender after every
        // receiver. When members start together and no coordinator exists
        // yet, JGroups makes the first (lowest) address among those that
        // answered discovery the coordinator; with random UUIDs the sender,
        // starting a second later, sometimes made itself a coordinator of its
        // own and the views then had to merge (tens of seconds under loss).
        long order = (opt.isSender() ? 1L << 40 : 0L) + opt.nodeId;
        long random = new SecureRandom().nextLong();
        ch.addAddressGenerator(() -> new UUID(order, random));
        ch.setReceiver(this);
        channel = ch;
        return ch;
    }

    @Override
    public void viewAccepted(View v) {
        synchronized (this) {
            view = v;
            notifyAll();
        }
        System.err.println("dissem-jgroups: view " + v);
    }

    int viewSize() {
        View v = view;
        return v == null ? 0 : v.size();
    }

    void sendControl(Address dest, int magic) {
        try {
            JChannel ch = channel;
            if (ch != null && dest != null) {
                Message m = new BytesMessage(dest, Payload.control(magic, opt.nodeId))
                    .setFlag(Message.Flag.OOB, Message.Flag.NO_FC);
                ch.send(m);
            }
        } catch (Exception e) {
            if (!finished.get()) {
                System.err.println("dissem-jgroups: control message to " + dest + " failed: " + e);
            }
        }
    }

    /** Common statistics of the stack, for the result. */
    void putStackStats(Map<String, Object> r) {
        JChannel ch = channel;
        NAKACK2 nak = ch == null ? null : ch.getProtocolStack().findProtocol(NAKACK2.class);
        DISCARD discard = ch == null ? null : ch.getProtocolStack().findProtocol(DISCARD.class);
        r.put("xmit_requests_sent", nak == null ? 0 : nak.getXmitRequestsSent());
        r.put("xmit_requests_received", nak == null ? 0 : nak.getXmitRequestsReceived());
        r.put("xmit_responses_sent", nak == null ? 0 : nak.getXmitResponsesSent());
        r.put("xmit_interval_ms", opt.xmitIntervalMs);
        r.put("max_xmit_req", opt.maxXmitReq);
        r.put("discard_pct", opt.discardPercent);
        Object dropped = null;
        if (discard != null) {
            try {
                dropped = discard.getValue("num_up");
            } catch (RuntimeException e) {
                dropped = null;
            }
        }
        r.put("discarded_up", dropped instanceof Number ? ((Number) dropped).longValue() : 0L);
        r.put("view_size", viewSize());
        r.put("jgroups_version", Main.jgroupsVersion());
    }

    Map<String, Object> base() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("system", "jgroups");
        r.put("role", opt.role);
        r.put("node_id", opt.nodeId);
        r.put("group", opt.group);
        r.put("port", opt.port);
        r.put("cluster", opt.cluster);
        r.put("bind_addr", opt.bindAddress);
        return r;
    }

    /**
     * Prints the result (once), closes the channel within CLOSE_BOUND_MS and
     * halts the JVM with 0 (succeeded) or 1. Safe to call from any thread,
     * including the shutdown hook; later calls wait for the first to halt.
     */
    void finish() {
        if (!finished.compareAndSet(false, true)) {
            // Another thread is finishing and will halt the JVM with its code;
            // returning from a shutdown hook would end the JVM with 128 + signal.
            try {
                Thread.sleep(CLOSE_BOUND_MS + 5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        printResult();
        closeAndHalt();
    }

    /** Prints the result line now (used when a role prints before lingering). */
    boolean printed;

    synchronized void printResult() {
        if (printed) {
            return;
        }
        printed = true;
        String line;
        try {
            line = Json.write(result());
        } catch (RuntimeException e) {
            line = "{\"system\":\"jgroups\",\"role\":\"" + opt.role + "\",\"error\":\"result failed\"}";
        }
        out.println(line);
        out.flush();
    }

    void closeAndHalt() {
        int code = succeeded() ? 0 : 1;
        JChannel ch = channel;
        if (ch != null) {
            Thread closer = new Thread(() -> {
                try {
                    ch.close();
                } catch (RuntimeException e) {
                    // closing is best effort
                }
            }, "dissem-close");
            closer.setDaemon(true);
            closer.start();
            try {
                closer.join(CLOSE_BOUND_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(code);
    }

    /** SIGTERM / SIGINT (shutdown hook). */
    void onSignal() {
        interrupted = true;
        finish();
    }

    /** --time-limit reached. */
    void onTimeLimit() {
        timedOut = true;
        finish();
    }
}
