"""Reading a command's JSON result from its stdout: the last object line,
however long (a receiver of tens of thousands of messages prints one line
of megabytes), and not a payload printed before it."""

import json

from runner.results import TAIL_BYTES, last_json_object


def test_a_result_line_longer_than_the_tail_is_read_whole(tmp_path):
    result = {"role": "receiver", "messages": [{"index": i, "latency_s": 0.25} for i in range(200_000)]}
    path = tmp_path / "out"
    path.write_text("starting\n" + json.dumps(result) + "\n")
    assert path.stat().st_size > 2 * TAIL_BYTES
    assert last_json_object(path) == result


def test_the_last_object_wins_and_trailing_text_is_skipped(tmp_path):
    path = tmp_path / "out"
    path.write_text('{"a": 1}\n{"b": 2}\nnot json\n\n')
    assert last_json_object(path) == {"b": 2}
    path.write_text("x" * (3 * TAIL_BYTES) + "\n")
    assert last_json_object(path) is None
    assert last_json_object(tmp_path / "missing") is None
