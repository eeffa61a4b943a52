"""Length-prefixed frames on the dissemd Unix socket (see proto/ipc.proto).

Each frame is a 4-byte big-endian length N followed by N bytes of a
serialised protobuf message. N may be 0.

:class:`FrameDecoder` splits received bytes into frames without doing I/O
(the asyncio client feeds it from its protocol). :class:`FrameReader` reads
frames from a blocking stream socket with a deadline through one; it keeps a
partly received frame across calls, so a read that times out in the middle
of a frame loses nothing: the next call carries on where it stopped.
"""

from __future__ import annotations

import socket
import struct
import time
from typing import Optional

HEADER = struct.Struct(">I")
HEADER_BYTES = HEADER.size

# The daemon's own limit: the engine's largest message (64 MiB) plus room for
# the request fields. A delivery carries a few more header fields than a
# publish, so the reader allows a little more than that.
MAX_FRAME_BYTES = 64 * 1024 * 1024 + 64 * 1024

_MIN_RECV = 64 * 1024
_MAX_RECV = 4 * 1024 * 1024


class FrameError(Exception):
    """The byte stream cannot be read as frames (the connection is unusable)."""


class FrameTooLarge(FrameError):
    def __init__(self, length: int, limit: int) -> None:
        super().__init__(f"frame of {length} bytes exceeds the limit of {limit} bytes")
        self.length = length
        self.limit = limit


class StreamClosed(FrameError):
    """The peer closed the connection (possibly in the middle of a frame)."""


def encode_frame(body: bytes) -> bytes:
    """Header + body, ready to write."""
    if len(body) > 0xFFFFFFFF:
        raise ValueError(f"frame body of {len(body)} bytes does not fit a 32-bit length")
    return HEADER.pack(len(body)) + body


def _remaining(deadline: Optional[float]) -> Optional[float]:
    if deadline is None:
        return None
    return max(0.0, deadline - time.monotonic())


def send_all(sock: socket.socket, data: bytes, deadline: Optional[float] = None) -> None:
    """Writes `data` (encoded frames), all of it by `deadline` (a
    time.monotonic() value, or None for no limit). Raises TimeoutError (the
    stream is then unusable: part of a frame may have been sent) or OSError."""
    remaining = _remaining(deadline)
    if remaining is not None and remaining <= 0:
        raise TimeoutError("deadline passed before the frame was written")
    sock.settimeout(remaining)
    sock.sendall(data)


def write_frame(sock: socket.socket, body: bytes, deadline: Optional[float] = None) -> None:
    """Writes one frame around `body`; as send_all()."""
    send_all(sock, encode_frame(body), deadline)


class FrameDecoder:
    """Splits a byte stream into frame bodies, without doing any I/O: feed()
    what arrives, take frames out with next_frame(). The blocking FrameReader
    and the asyncio client both read through one."""

    def __init__(self, max_frame_bytes: int = MAX_FRAME_BYTES) -> None:
        self._max = max_frame_bytes
        self._buf = bytearray()

    def feed(self, data: bytes) -> None:
        self._buf += data

    def buffered(self) -> int:
        """Bytes received but not yet handed out as frames."""
        return len(self._buf)

    def _declared(self) -> int:
        length: int = HEADER.unpack_from(self._buf, 0)[0]
        return length

    def next_frame(self) -> Optional[bytes]:
        """The next complete frame's body, or None until more bytes arrive.
        Raises FrameTooLarge as soon as a header declares too long a frame
        (before its body is buffered)."""
        if len(self._buf) < HEADER_BYTES:
            return None
        length = self._declared()
        if length > self._max:
            raise FrameTooLarge(length, self._max)
        end = HEADER_BYTES + length
        if len(self._buf) < end:
            return None
        body = bytes(self._buf[HEADER_BYTES:end])
        del self._buf[:end]
        return body

    def wanted(self) -> int:
        """A good size for the next read: the rest of the frame in progress,
        within [64 KiB, 4 MiB]."""
        if len(self._buf) >= HEADER_BYTES:
            missing = HEADER_BYTES + self._declared() - len(self._buf)
            return max(_MIN_RECV, min(missing, _MAX_RECV))
        return _MIN_RECV


class FrameReader:
    """Incremental frame reader over a connected stream socket."""

    def __init__(self, sock: socket.socket, max_frame_bytes: int = MAX_FRAME_BYTES) -> None:
        self._sock = sock
        self._decoder = FrameDecoder(max_frame_bytes)
        self._closed = False

    def buffered(self) -> int:
        """Bytes received but not yet handed out as frames."""
        return self._decoder.buffered()

    def read(self, deadline: Optional[float] = None) -> Optional[bytes]:
        """The next frame body, or None if none is complete by `deadline`
        (time.monotonic() seconds; None waits without limit; a deadline in the
        past still returns a frame already buffered or readable at once).

        Raises StreamClosed at end of stream, FrameTooLarge, or OSError."""
        while True:
            frame = self._decoder.next_frame()
            if frame is not None:
                return frame
            if self._closed:
                partial = " in the middle of a frame" if self._decoder.buffered() else ""
                raise StreamClosed("connection closed" + partial)
            remaining = _remaining(deadline)
            # 0 puts the socket in non-blocking mode: take only what is there.
            self._sock.settimeout(remaining)
            try:
                chunk = self._sock.recv(self._decoder.wanted())
            except (socket.timeout, BlockingIOError):
                return None
            except InterruptedError:
                continue
            if not chunk:
                self._closed = True
                continue
            self._decoder.feed(chunk)
