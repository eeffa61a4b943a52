package dissem.jgroups;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jgroups.Address;
import org.jgroups.Message;

/**
 * Joins the cluster and waits for --expect application messages (any
 * indices, each counted once), checking every byte. On completion it prints
 * its result, tells the sender (a unicast "done", answered by the sender),
 * lingers and leaves; exit 0. Time limit or SIGTERM: partial result, exit 1.
 */
final class ReceiverNode extends Node {
    /** How long a completed receiver waits for the sender's answer to "done". */
    static final double DONE_ACK_WAIT_S = 5.0;

    private final Map<Integer, Map<String, Object>> byIndex = new HashMap<>();
    private final List<Map<String, Object>> messages = new ArrayList<>();
    private long bytesCompleted;
    private long contentErrors;
    private long duplicates;
    private long unidentified;
    private double firstRxS = Double.NaN;
    private double lastCompletionS = Double.NaN;
    private double joinS = Double.NaN;
    private Address sender;
    private boolean doneAcked;

    ReceiverNode(Options opt, PrintStream out, long startNanos, double startUnix) {
        super(opt, out, startNanos, startUnix);
    }

    private synchronized boolean complete() {
        return messages.size() >= opt.expect;
    }

    @Override
    boolean succeeded() {
        return complete();
    }

    @Override
    void run() throws Exception {
        openChannel().connect(opt.cluster);
        synchronized (this) {
            joinS = sinceStart();
        }
        System.err.printf("dissem-jgroups: receiver %d joined %s as %s in %.3f s%n",
            opt.nodeId, opt.cluster, channel.getAddress(), joinS);
        synchronized (this) {
            while (!complete()) {
                double left = remaining();
                if (left <= 0) {
                    break;
                }
                wait(Math.max(1, (long) (left * 1000)));
            }
        }
        if (!complete()) {
            onTimeLimit();
            return;
        }
        printResult();
        Address s;
        synchronized (this) {
            s = sender;
        }
        sendControl(s, Payload.MAGIC_DONE);
        double doneAt = sinceStart();
        synchronized (this) {
            while (true) {
                double waited = sinceStart() - doneAt;
                double left = Math.min(remaining(), Math.max(opt.linger, doneAcked ? 0 : DONE_ACK_WAIT_S) - waited);
                if (left <= 0) {
                    break;
                }
                wait(Math.max(1, (long) (left * 1000)));
            }
        }
        finish();
    }

    @Override
    public void receive(Message msg) {
        byte[] buf = msg.getArray();
        int off = msg.getOffset(), len = msg.getLength();
        if (buf == null) {
            return;
        }
        int magic = Payload.magic(buf, off, len);
        if (magic == Payload.MAGIC_DONE_ACK) {
            synchronized (this) {
                doneAcked = true;
                notifyAll();
            }
            return;
        }
        double completedUnix = nowUnix();
        double completedS = sinceStart();
        Payload.Data d = Payload.parse(buf, off, len);
        synchronized (this) {
            if (Double.isNaN(firstRxS)) {
                firstRxS = completedS;
            }
            if (d == null) {
                unidentified++;
                return;
            }
            if (sender == null) {
                sender = msg.getSrc();
            }
            if (byIndex.containsKey(d.index)) {
                duplicates++;
                return;
            }
            if (!d.contentOk) {
                contentErrors++;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            double enqueueUnix = d.enqueueMicros / 1e6;
            m.put("index", d.index);
            m.put("bytes", d.bytes);
            m.put("latency_s", completedUnix - enqueueUnix);
            m.put("enqueue_unix", enqueueUnix);
            m.put("completed_s", completedS);
            m.put("completed_unix", completedUnix);
            m.put("content_ok", d.contentOk);
            byIndex.put(d.index, m);
            messages.add(m);
            bytesCompleted += d.bytes;
            lastCompletionS = completedS;
            notifyAll();
        }
    }

    @Override
    synchronized Map<String, Object> result() {
        Map<String, Object> r = base();
        r.put("expect", opt.expect);
        r.put("objects_completed", messages.size());
        r.put("bytes_completed", bytesCompleted);
        r.put("content_errors", contentErrors);
        r.put("duplicates", duplicates);
        r.put("unidentified", unidentified);
        r.put("start_unix", processStartUnix);
        r.put("join_s", joinS);
        r.put("first_rx_s", firstRxS);
        r.put("last_completion_s", lastCompletionS);
        r.put("timed_out", timedOut);
        r.put("interrupted", interrupted);
        r.put("linger", opt.linger);
        r.put("sender_address", sender == null ? null : sender.toString());
        putStackStats(r);
        r.put("messages", new ArrayList<>(messages));
        return r;
    }
}
