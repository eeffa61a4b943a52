package dissem.jgroups;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Command line of both roles. Every error names the option (exit 2). */
final class Options {
    String role;
    long nodeId = -1;
    String interfaceName;
    String bindAddress;  // resolved from interfaceName
    String group = "239.9.9.9";
    int port = 6005;
    int ttl = 1;
    String cluster = "dissem-jgroups";
    double timeLimit = 60.0;
    double linger = Double.NaN;  // role default
    String stackFile;
    double discardPercent = 0.0;
    long xmitIntervalMs = -1;  // -1: derived (see applyDerived)
    int maxXmitReq = -1;
    long joinTimeoutMs = 3000;
    /** Default xmit_interval with a known --rate: this many 1500-byte datagrams' time. */
    static final int XMIT_PACKETS = 30;
    /** Cap of that default: 2.8 s (256 kbit/s) and 4 s (1 Mbit/s) stalled repairs. */
    static final long MAX_DERIVED_XMIT_MS = 1500;

    // sender
    long rateBps = -1;
    List<Integer> messageSizes = new ArrayList<>();
    int receivers = 0;
    int fragSize = 1400;
    double rateShare = 0.75;
    long ratePeriodMs = -1;  // -1: derived

    // receiver
    int expect = -1;

    static final String USAGE =
        "usage: dissem-jgroups receiver --node-id N --interface IF --expect M [--linger S] [--time-limit S]\n"
        + "                      [--group ADDR] [--port P] [--cluster NAME] [--ttl N] [--discard PERCENT]\n"
        + "                      [--rate BPS] [--xmit-interval MS] [--max-xmit-req N] [--stack FILE]\n"
        + "       dissem-jgroups sender --node-id N --interface IF --rate BPS --messages COUNTxBYTES|B1,B2,...\n"
        + "                      [--receivers K] [--linger S] [--time-limit S] [--frag-size 1400]\n"
        + "                      [--rate-share 0.75] [--rate-period MS] [--group ADDR] [--port P]\n"
        + "                      [--cluster NAME] [--ttl N] [--discard PERCENT] [--xmit-interval MS]\n"
        + "                      [--max-xmit-req N] [--join-timeout MS] [--stack FILE]\n";

    boolean isSender() {
        return "sender".equals(role);
    }

    static Options parse(String[] args) throws UsageError {
        Options o = new Options();
        if (args.length == 0) {
            throw new UsageError("missing role: sender or receiver");
        }
        o.role = args[0];
        if (!o.isSender() && !"receiver".equals(o.role)) {
            throw new UsageError("unknown role '" + args[0] + "': sender or receiver");
        }
        boolean sawRate = false, sawMessages = false, sawExpect = false;
        for (int i = 1; i < args.length; i++) {
            String name = args[i];
            String value;
            int eq = name.indexOf('=');
            if (name.startsWith("--") && eq > 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else {
                if (name.equals("--help") || name.equals("-h")) {
                    throw new UsageError("help requested");
                }
                if (i + 1 >= args.length) {
                    throw new UsageError(name + ": missing value");
                }
                value = args[++i];
            }
            switch (name) {
                case "--node-id": o.nodeId = longIn(name, value, 0, 0xFFFFFFFEL); break;
                case "--interface": o.interfaceName = value; break;
                case "--group": o.group = value; break;
                case "--port": o.port = (int) longIn(name, value, 1, 65535); break;
                case "--ttl": o.ttl = (int) longIn(name, value, 0, 255); break;
                case "--cluster":
                    if (value.isEmpty()) {
                        throw new UsageError("--cluster: empty");
                    }
                    o.cluster = value;
                    break;
                case "--time-limit": o.timeLimit = doubleIn(name, value, 0.001, 1e7); break;
                case "--linger": o.linger = doubleIn(name, value, 0, 1e7); break;
                case "--stack": o.stackFile = value; break;
                case "--discard": o.discardPercent = doubleIn(name, value, 0, 100); break;
                case "--xmit-interval": o.xmitIntervalMs = longIn(name, value, 1, 600_000); break;
                case "--max-xmit-req": o.maxXmitReq = (int) longIn(name, value, 1, 1 << 20); break;
                case "--join-timeout": o.joinTimeoutMs = longIn(name, value, 100, 600_000); break;
                case "--rate": o.rateBps = longIn(name, value, 1000, 100_000_000_000L); sawRate = true; break;
                case "--messages": o.messageSizes = parseMessages(value); sawMessages = true; break;
                case "--receivers": o.receivers = (int) longIn(name, value, 0, 100_000); break;
                case "--frag-size": o.fragSize = (int) longIn(name, value, 100, 65000); break;
                case "--rate-share": o.rateShare = doubleIn(name, value, 0.01, 1.0); break;
                case "--rate-period": o.ratePeriodMs = longIn(name, value, 1, 60_000); break;
                case "--expect": o.expect = (int) longIn(name, value, 1, 10_000_000); sawExpect = true; break;
                default: throw new UsageError(name + ": unknown option");
            }
            if (!o.isSender() && senderOnly(name)) {
                throw new UsageError(name + ": only for the sender");
            }
            if (o.isSender() && name.equals("--expect")) {
                throw new UsageError("--expect: only for the receiver");
            }
        }
        if (o.nodeId < 0) {
            throw new UsageError("--node-id: required");
        }
        if (o.isSender()) {
            if (!sawRate) {
                throw new UsageError("--rate: required for the sender");
            }
            if (!sawMessages) {
                throw new UsageError("--messages: required for the sender");
            }
            if (Double.isNaN(o.linger)) {
                o.linger = 600.0;
            }
        } else {
            if (!sawExpect) {
                throw new UsageError("--expect: required for the receiver");
            }
            if (Double.isNaN(o.linger)) {
                o.linger = 0.0;
            }
        }
        InetAddress g;
        try {
            g = InetAddress.getByName(o.group);
        } catch (Exception e) {
            throw new UsageError("--group: not an address: " + o.group);
        }
        if (!(g instanceof Inet4Address) || !g.isMulticastAddress()) {
            throw new UsageError("--group: not an IPv4 multicast address: " + o.group);
        }
        o.bindAddress = resolveInterface(o.interfaceName);
        o.applyDerived();
        return o;
    }

    private static boolean senderOnly(String name) {
        switch (name) {
            case "--messages": case "--receivers": case "--frag-size": case "--rate-share":
            case "--rate-period":
                return true;
            default:
                return false;
        }
    }

    /** Payload bytes per second the RATE_LIMITER lets through. */
    double rateLimitBytesPerS() {
        return rateBps * rateShare / 8.0;
    }

    /** RATE_LIMITER max_bytes (a whole number of fragments) and time_period. */
    long rateMaxBytes;

    private void applyDerived() throws UsageError {
        if (rateBps > 0) {
            double bytesPerMs = rateLimitBytesPerS() / 1000.0;
            if (ratePeriodMs > 0) {
                rateMaxBytes = Math.max(fragSize, Math.round(bytesPerMs * ratePeriodMs));
            } else {
                // Smallest whole number of fragments per period whose period,
                // rounded to a millisecond, is within 1 % of the target rate
                // (and at least 10 ms, RATE_LIMITER's default); bursts stay short.
                long bestN = 1, bestPeriod = Math.max(1, Math.round(fragSize / bytesPerMs));
                double bestErr = Double.MAX_VALUE;
                for (long n = 1; n <= 1000; n++) {
                    double exact = n * fragSize / bytesPerMs;
                    long period = Math.round(exact);
                    if (period < 10) {
                        continue;
                    }
                    double err = Math.abs(period - exact) / exact;
                    if (err < bestErr) {
                        bestErr = err;
                        bestN = n;
                        bestPeriod = period;
                    }
                    if (err <= 0.01) {
                        break;
                    }
                }
                rateMaxBytes = bestN * fragSize;
                ratePeriodMs = bestPeriod;
            }
        }
        if (xmitIntervalMs < 0) {
            // NAKACK2 asks again for everything still missing every interval
            // and the sender multicasts every answer unpaced: an interval much
            // shorter than the link needs to carry a round's repairs floods
            // the link, a much longer one wastes rounds (README.md). With the
            // link rate known: the time of XMIT_PACKETS full datagrams.
            xmitIntervalMs = rateBps > 0
                ? Math.max(100, Math.min(MAX_DERIVED_XMIT_MS, Math.round(XMIT_PACKETS * (fragSize + 100) * 8000.0 / rateBps)))
                : 500;
        }
        if (maxXmitReq < 0) {
            maxXmitReq = 1024;
        }
    }

    static String resolveInterface(String name) throws UsageError {
        if (name == null) {
            return "127.0.0.1";
        }
        try {
            NetworkInterface nif = NetworkInterface.getByName(name);
            if (nif == null) {
                throw new UsageError("--interface: no such interface: " + name);
            }
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet4Address) {
                    return a.getHostAddress();
                }
            }
            throw new UsageError("--interface: " + name + " has no IPv4 address");
        } catch (SocketException e) {
            throw new UsageError("--interface: " + name + ": " + e.getMessage());
        }
    }

    static List<Integer> parseMessages(String value) throws UsageError {
        List<Integer> sizes = new ArrayList<>();
        String v = value.toLowerCase(Locale.ROOT);
        int x = v.indexOf('x');
        if (x > 0) {
            long count = longIn("--messages", v.substring(0, x), 1, 1_000_000);
            long bytes = longIn("--messages", v.substring(x + 1), 0, Integer.MAX_VALUE - 64);
            for (long i = 0; i < count; i++) {
                sizes.add((int) bytes);
            }
        } else {
            for (String part : v.split(",", -1)) {
                sizes.add((int) longIn("--messages", part.trim(), 0, Integer.MAX_VALUE - 64));
            }
        }
        long total = 0;
        for (int s : sizes) {
            total += s;
        }
        if (total > (1L << 32)) {
            throw new UsageError("--messages: more than 4 GiB in all");
        }
        return sizes;
    }

    static long longIn(String name, String value, long min, long max) throws UsageError {
        long v;
        try {
            v = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageError(name + ": not an integer: '" + value + "'");
        }
        if (v < min || v > max) {
            throw new UsageError(name + ": " + v + " is outside " + min + ".." + max);
        }
        return v;
    }

    static double doubleIn(String name, String value, double min, double max) throws UsageError {
        double v;
        try {
            v = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageError(name + ": not a number: '" + value + "'");
        }
        if (!(v >= min && v <= max)) {
            throw new UsageError(name + ": " + value + " is outside " + min + ".." + max);
        }
        return v;
    }
}
