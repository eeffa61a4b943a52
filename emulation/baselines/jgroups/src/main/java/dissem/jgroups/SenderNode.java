package dissem.jgroups;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.jgroups.BytesMessage;
import org.jgroups.Message;
import org.jgroups.protocols.RATE_LIMITER;

/**
 * Joins the cluster, waits until the view holds --receivers others, then
 * multicasts every message (RATE_LIMITER paces the fragments; send() returns
 * once the last fragment is handed to the transport). It then stays to serve
 * retransmissions until every one of the --receivers receivers has reported
 * "done" (completion), or --linger seconds after the last send, or the time
 * limit, or SIGTERM. Without --receivers it always lingers the full time.
 */
final class SenderNode extends Node {
    /** After the last receiver reported, the sender stays this long before it closes. */
    static final double DONE_GRACE_S = 1.0;

    private final List<Double> enqueueTimes = new ArrayList<>();
    private final TreeSet<Long> receiversDone = new TreeSet<>();
    private long objectsEnqueued;
    private long bytesEnqueued;
    private double startUnix = Double.NaN;
    private long startNanos;
    private double joinS = Double.NaN;
    private double sentS = Double.NaN;
    private double completionS = Double.NaN;
    private boolean completed;
    private boolean sendFailed;

    SenderNode(Options opt, PrintStream out, long startNanos, double startUnix) {
        super(opt, out, startNanos, startUnix);
    }

    @Override
    synchronized boolean succeeded() {
        return completed;
    }

    private double sinceSendStart() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    void run() throws Exception {
        // Build every message before joining, so that building does not count.
        List<byte[]> bufs = new ArrayList<>();
        for (int i = 0; i < opt.messageSizes.size(); i++) {
            bufs.add(Payload.build(i, opt.messageSizes.get(i)));
        }
        openChannel().connect(opt.cluster);
        System.err.printf("dissem-jgroups: sender %d joined %s as %s in %.3f s%n",
            opt.nodeId, opt.cluster, channel.getAddress(), sinceStart());
        synchronized (this) {
            while (viewSize() < opt.receivers + 1) {
                double left = remaining();
                if (left <= 0) {
                    break;
                }
                wait(Math.max(1, (long) (left * 1000)));
            }
            joinS = sinceStart();
        }
        if (viewSize() < opt.receivers + 1) {
            System.err.printf("dissem-jgroups: the view never held %d members (last: %s)%n",
                opt.receivers + 1, view);
            onTimeLimit();
            return;
        }
        synchronized (this) {
            startUnix = nowUnix();
            startNanos = System.nanoTime();
        }
        for (int i = 0; i < bufs.size(); i++) {
            byte[] buf = bufs.get(i);
            double t = sinceSendStart();
            Payload.stamp(buf, Math.round((startUnix + t) * 1e6));
            synchronized (this) {
                enqueueTimes.add(t);
            }
            try {
                channel.send(new BytesMessage(null, buf).setFlag(Message.TransientFlag.DONT_LOOPBACK));
            } catch (Exception e) {
                System.err.println("dissem-jgroups: send " + i + " failed: " + e);
                synchronized (this) {
                    sendFailed = true;
                }
                finish();
                return;
            }
            synchronized (this) {
                objectsEnqueued++;
                bytesEnqueued += buf.length - Payload.HEADER_BYTES;
            }
            if (remaining() <= 0) {
                onTimeLimit();
                return;
            }
        }
        synchronized (this) {
            sentS = sinceSendStart();
            if (opt.receivers == 0) {
                completed = true;  // only "handed to JGroups": nobody to report
                completionS = sentS;
            } else if (receiversDone.size() >= opt.receivers) {
                completed = true;
                completionS = sentS;
            }
        }
        System.err.printf("dissem-jgroups: sent %d messages in %.3f s%n", objectsEnqueued, sentS);
        double lingerStart = sinceStart();
        synchronized (this) {
            while (true) {
                if (opt.receivers > 0 && receiversDone.size() >= opt.receivers) {
                    break;
                }
                double left = Math.min(remaining(), opt.linger - (sinceStart() - lingerStart));
                if (left <= 0) {
                    break;
                }
                wait(Math.max(1, (long) (left * 1000)));
            }
        }
        if (remaining() <= 0 && !succeeded()) {
            onTimeLimit();
            return;
        }
        if (succeeded() && opt.receivers > 0) {
            // A moment for the last answers to "done" (and UNICAST3's repeats
            // of them) before the channel closes.
            Thread.sleep((long) (Math.max(0, Math.min(DONE_GRACE_S, remaining())) * 1000));
        }
        finish();
    }

    @Override
    public void receive(Message msg) {
        byte[] buf = msg.getArray();
        if (buf == null) {
            return;
        }
        int off = msg.getOffset(), len = msg.getLength();
        if (Payload.magic(buf, off, len) != Payload.MAGIC_DONE) {
            return;
        }
        long node = Payload.controlNode(buf, off, len);
        sendControl(msg.getSrc(), Payload.MAGIC_DONE_ACK);
        synchronized (this) {
            if (receiversDone.add(node)) {
                System.err.printf("dissem-jgroups: receiver %d done (%d of %d)%n",
                    node, receiversDone.size(), opt.receivers);
            }
            if (!completed && opt.receivers > 0 && receiversDone.size() >= opt.receivers
                && objectsEnqueued == opt.messageSizes.size()) {
                completed = true;
                completionS = sinceSendStart();
            }
            notifyAll();
        }
    }

    @Override
    synchronized Map<String, Object> result() {
        Map<String, Object> r = base();
        r.put("messages_planned", opt.messageSizes.size());
        r.put("objects_enqueued", objectsEnqueued);
        r.put("bytes_enqueued", bytesEnqueued);
        r.put("start_unix", startUnix);
        r.put("join_s", joinS);
        r.put("enqueue_times", new ArrayList<>(enqueueTimes));
        r.put("sent_s", sentS);
        r.put("completed", completed);
        r.put("completion_basis", opt.receivers > 0 ? "done" : "sent");
        r.put("completion_s", completionS);
        r.put("timed_out", timedOut);
        r.put("interrupted", interrupted);
        r.put("send_failed", sendFailed);
        r.put("receivers", opt.receivers);
        r.put("receivers_done", new ArrayList<>(receiversDone));
        r.put("rate_bps", opt.rateBps);
        r.put("rate_share", opt.rateShare);
        r.put("rate_limit_bytes_per_s", opt.rateLimitBytesPerS());
        r.put("rate_limit_max_bytes", opt.rateMaxBytes);
        r.put("rate_limit_period_ms", opt.ratePeriodMs);
        RATE_LIMITER rl = channel == null ? null : channel.getProtocolStack().findProtocol(RATE_LIMITER.class);
        r.put("rate_limit_block_ms", rl == null ? 0 : rl.getTotalBlockTime());
        r.put("frag_size", opt.fragSize);
        r.put("linger", opt.linger);
        putStackStats(r);
        return r;
    }
}
