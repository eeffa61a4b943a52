package dissem.jgroups;

import java.nio.ByteBuffer;

/**
 * Wire format of an application message: a 24-byte header (magic "DJG1",
 * index, enqueue wall time in microseconds since the epoch, payload length,
 * reserved), then the payload, whose bytes are a deterministic function of
 * the index and the position so that a receiver checks every byte.
 *
 * Control messages (unicast, 12 bytes): "DJGD" node id 0 (receiver to sender:
 * every expected message arrived) and "DJGA" node id 0 (sender's answer).
 */
final class Payload {
    static final int MAGIC_DATA = 0x444a4731;  // "DJG1"
    static final int MAGIC_DONE = 0x444a4744;  // "DJGD"
    static final int MAGIC_DONE_ACK = 0x444a4741;  // "DJGA"
    static final int HEADER_BYTES = 24;
    static final int CONTROL_BYTES = 12;

    private Payload() {}

    static byte valueAt(int index, int position) {
        long x = (position + 1L) * 0x9E3779B97F4A7C15L + index * 0xC2B2AE3D27D4EB4FL;
        x ^= x >>> 29;
        x *= 0xBF58476D1CE4E5B9L;
        x ^= x >>> 32;
        return (byte) x;
    }

    /** The whole message for index; the enqueue time is filled in by stamp(). */
    static byte[] build(int index, int bytes) {
        byte[] buf = new byte[HEADER_BYTES + bytes];
        ByteBuffer b = ByteBuffer.wrap(buf);
        b.putInt(MAGIC_DATA).putInt(index).putLong(0L).putInt(bytes).putInt(0);
        for (int i = 0; i < bytes; i++) {
            buf[HEADER_BYTES + i] = valueAt(index, i);
        }
        return buf;
    }

    static void stamp(byte[] buf, long enqueueMicros) {
        ByteBuffer.wrap(buf).putLong(8, enqueueMicros);
    }

    /** A parsed data message: header fields and whether every payload byte is right. */
    static final class Data {
        final int index;
        final long enqueueMicros;
        final int bytes;
        final boolean contentOk;

        Data(int index, long enqueueMicros, int bytes, boolean contentOk) {
            this.index = index;
            this.enqueueMicros = enqueueMicros;
            this.bytes = bytes;
            this.contentOk = contentOk;
        }
    }

    static int magic(byte[] buf, int offset, int length) {
        if (length < 4) {
            return 0;
        }
        return ByteBuffer.wrap(buf, offset, length).getInt();
    }

    /** Parses and checks a data message; null if it is not one (too short). */
    static Data parse(byte[] buf, int offset, int length) {
        if (length < HEADER_BYTES) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(buf, offset, length);
        if (b.getInt() != MAGIC_DATA) {
            return null;
        }
        int index = b.getInt();
        long enqueue = b.getLong();
        int bytes = b.getInt();
        boolean ok = bytes >= 0 && length - HEADER_BYTES == bytes && index >= 0;
        if (ok) {
            int base = offset + HEADER_BYTES;
            for (int i = 0; i < bytes; i++) {
                if (buf[base + i] != valueAt(index, i)) {
                    ok = false;
                    break;
                }
            }
        }
        return new Data(index, enqueue, length - HEADER_BYTES, ok);
    }

    static byte[] control(int magic, long nodeId) {
        return ByteBuffer.allocate(CONTROL_BYTES).putInt(magic).putLong(nodeId).array();
    }

    static long controlNode(byte[] buf, int offset, int length) {
        return length >= CONTROL_BYTES ? ByteBuffer.wrap(buf).getLong(offset + 4) : -1;
    }
}
