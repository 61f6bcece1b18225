"""The example replies of docs/bots-saint-malo.md are real messages of the protocol, as written."""

from __future__ import annotations

import re
from pathlib import Path

from google.protobuf import text_format

from sdk.games.saint_malo.protocol import saint_malo_pb2

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "bots-saint-malo.md"
EXAMPLE = re.compile(r"^(\w+Reply): (.*)$", re.MULTILINE)


def test_every_example_reply_parses_into_its_message() -> None:
    examples = EXAMPLE.findall(GUIDE.read_text(encoding="utf-8"))
    kinds = {name for name, _ in examples}
    assert kinds == {
        f"{rpc}Reply" for rpc in saint_malo_pb2.DESCRIPTOR.services_by_name["SaintMalo"].methods_by_name
    }
    for name, body in examples:
        message = text_format.Parse(body, getattr(saint_malo_pb2, name)())
        assert message.decision_id >= 1, body
        assert text_format.MessageToString(message, as_one_line=True) == body.replace(" }", " }").strip(), (
            body
        )
