"""Submitted archives: unpacked safely, and every hostile one refused with one clear 4xx that leaves
nothing behind (no row, no file), on a real server on 127.0.0.1."""

from __future__ import annotations

import http.client
import io
import json
import os
import stat
import sys
import tarfile
import time
import urllib.parse
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from server.ladder.archive import MAX_ENTRIES, ArchiveError, unpack
from server.ladder.config import load_ladder
from server.ladder.store import LadderStore
from server.ladder.validation import validate_next
from server.store.repository import Store

from .conftest import cli
from .test_api import Api, Reply, bots, serving
from .test_organiser import add

LIMIT_MB = 1
LIMIT = LIMIT_MB * 1024 * 1024
CORPUS_LADDER = (
    "name: corpus\ngame: saint_malo\nplayers: 2\n"
    f"submission_mb: {LIMIT_MB}\nmax_active_bots: 10\nsubmissions_per_hour: 3\n"
)


def tar_gz(*members: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for info, data in members:
            tar.addfile(info, None if data is None else io.BytesIO(data))
    return buffer.getvalue()


def member(
    name: str, data: bytes = b"x = 1\n", kind: bytes = tarfile.REGTYPE, **fields: object
) -> tuple[tarfile.TarInfo, bytes | None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    for key, value in fields.items():
        setattr(info, key, value)
    return info, data if kind == tarfile.REGTYPE else None


def zipped(*entries: tuple[str, bytes], mode: int | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if mode is not None:
                info.external_attr = mode << 16
            archive.writestr(info, data)
    return buffer.getvalue()


def lying_zip_bomb() -> bytes:
    """A zip whose one file declares 100 bytes and holds 20 MiB of zeros (sizes patched in both the
    local header and the central directory)."""
    honest = zipped(("bomb.txt", b"\0" * (20 * 1024 * 1024)))
    real = (20 * 1024 * 1024).to_bytes(4, "little")
    patched = honest.replace(real, (100).to_bytes(4, "little"))
    assert patched.count((100).to_bytes(4, "little")) >= 2 and patched != honest
    return patched


def good_tar_gz() -> bytes:
    return tar_gz(member("bot.py", bytes(range(256)) * 40))


def wrong_crc(data: bytes) -> bytes:
    """``data`` (a .tar.gz) with the CRC in its gzip trailer changed."""
    crc = bytes(byte ^ 0xFF for byte in data[-8:-4])
    return data[:-8] + crc + data[-4:]


def zip_with_wrong_crc() -> bytes:
    honest = zipped(("bot.py", b"print('hello')\n" * 10))
    crc = zlib.crc32(b"print('hello')\n" * 10).to_bytes(4, "little")
    assert honest.count(crc) == 2  # the local header and the central directory
    return honest.replace(crc, (int.from_bytes(crc, "little") ^ 1).to_bytes(4, "little"))


def too_many_files() -> bytes:
    return tar_gz(*(member(f"f{number}.py", b"") for number in range(MAX_ENTRIES + 1)))


HOSTILE: dict[str, tuple[bytes, int, str]] = {
    "zip bomb (declared)": (zipped(("bomb.txt", b"\0" * (20 * 1024 * 1024))), 413, "pass 1 MiB"),
    "zip bomb (lying)": (lying_zip_bomb(), 422, "Bad CRC-32 for file 'bomb.txt'"),
    "tar.gz bomb": (tar_gz(member("bomb.txt", b"\0" * (20 * 1024 * 1024))), 413, "pass 1 MiB"),
    "dot-dot in a tar": (tar_gz(member("bot.py"), member("../evil.py")), 422, "a path with .. is refused"),
    "dot-dot in a zip": (zipped(("bot.py", b""), ("a/../../evil.py", b"")), 422, "a path with .. is refused"),
    "absolute path": (tar_gz(member("/tmp/evil.py")), 422, "absolute paths are refused"),
    "absolute path in a zip": (zipped(("/etc/evil", b"")), 422, "absolute paths are refused"),
    "symlink in a tar": (
        tar_gz(member("bot.py"), member("secrets", kind=tarfile.SYMTYPE, linkname="/etc/shadow")),
        422,
        "symbolic links are refused",
    ),
    "symlink in a zip": (
        zipped(("link", b"/etc/shadow"), mode=stat.S_IFLNK | 0o777),
        422,
        "symbolic links are refused",
    ),
    "hard link": (
        tar_gz(member("bot.py"), member("copy", kind=tarfile.LNKTYPE, linkname="bot.py")),
        422,
        "hard links are refused",
    ),
    "device": (
        tar_gz(member("disk", kind=tarfile.BLKTYPE, devmajor=8, devminor=0)),
        422,
        "device files",
    ),
    "fifo": (tar_gz(member("pipe", kind=tarfile.FIFOTYPE)), 422, "device files, FIFOs"),
    "oversize file": (tar_gz(member("big.bin", b"\1" * (LIMIT + 1))), 413, "pass 1 MiB"),
    "too many files": (too_many_files(), 422, f"more than {MAX_ENTRIES:,} files"),
    "not an archive": (b"print('hello')\n", 422, "not an archive"),
    "empty body": (b"", 422, "not an archive"),
    "truncated": (tar_gz(member("bot.py", bytes(range(256)) * 400))[:-200], 422, "damaged or truncated"),
    "no file": (tar_gz(member("empty", kind=tarfile.DIRTYPE)), 422, "holds no file"),
    "gzip without its trailer": (good_tar_gz()[:-8], 422, "damaged or truncated"),
    "gzip with a wrong CRC": (wrong_crc(good_tar_gz()), 422, "damaged or truncated"),
    "gzip with trailing garbage": (good_tar_gz() + b"garbage!", 422, "damaged or truncated"),
    "zip with a wrong CRC": (zip_with_wrong_crc(), 422, "Bad CRC-32 for file 'bot.py'"),
    "a name over 255 bytes": (
        tar_gz(member("d/" + "n" * 256 + ".py")),
        422,
        "a file or folder name longer than 255 bytes is refused",
    ),
    "empty folders over the limit": (
        tar_gz(member("bot.py"), *(member(f"d{n}/", kind=tarfile.DIRTYPE) for n in range(300))),
        413,
        "pass 1 MiB",
    ),
    "implicit folders over the limit": (
        zipped(*((f"d{n}/f.py", b"") for n in range(300))),
        413,
        "pass 1 MiB",
    ),
}


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    with serving(tmp_path, CORPUS_LADDER) as running:
        yield running


def upload(
    api: Api, token: str | None, data: bytes, name: str = "bot", command: str = "python bot.py"
) -> Reply:
    query = urllib.parse.urlencode({"name": name, "command": command})
    return api.request("POST", f"/bots/archive?{query}", token, raw=data)


def left_files(api: Api) -> list[Path]:
    data = api.db.with_name("ladder-data")
    return sorted(path for path in data.rglob("*") if path.is_file()) if data.exists() else []


@pytest.mark.parametrize("case", HOSTILE)
def test_a_hostile_archive_gets_one_4xx_line_and_leaves_nothing(api: Api, case: str) -> None:
    data, status, detail = HOSTILE[case]
    token = add(api.db, "ada")
    reply = upload(api, token, data)
    assert reply.status == status, (case, reply)
    message = reply.body["detail"]
    assert detail in message and "\n" not in message, (case, message)
    assert bots(api) == []
    assert left_files(api) == []


def test_a_good_archive_is_stored_as_its_folder_and_command(api: Api) -> None:
    token = add(api.db, "ada")
    data = tar_gz(
        member("mybot/", kind=tarfile.DIRTYPE), member("mybot/bot.py"), member("mybot/run", mode=0o755)
    )
    reply = upload(api, token, data, command="./run --fast")
    assert reply.status == 201, reply
    ((_, name, status, spec_json),) = bots(api)
    assert (name, status) == ("bot", "validating")
    spec = json.loads(str(spec_json))
    folder = Path(spec["dir"])
    assert spec["command"] == "./run --fast" and folder.is_absolute() and folder.name == "mybot"
    assert folder.is_relative_to(api.db.with_name("ladder-data").resolve())
    assert (folder / "bot.py").read_bytes() == b"x = 1\n"
    assert (folder / "run").stat().st_mode & 0o111 and not (folder / "bot.py").stat().st_mode & 0o111


def test_an_archive_without_a_token_or_over_the_limits_changes_nothing(api: Api) -> None:
    token = add(api.db, "ada")
    data = tar_gz(member("bot.py"))
    for bad in (None, "smt_wrong"):
        reply = upload(api, bad, data)
        assert reply.status == 401, reply
    too_big = upload(api, token, b"\0" * (LIMIT + 1))
    assert too_big.status == 413 and "larger than 1,048,576 bytes" in too_big.body["detail"]
    bad_command = upload(api, token, data, command="python 'unclosed")
    assert bad_command.status == 422 and bad_command.body["detail"].startswith("command: ")
    assert bots(api) == [] and left_files(api) == []
    for name in ("a", "b"):
        assert upload(api, token, data, name=name).status == 201
    taken = upload(api, token, data, name="a")
    assert (
        taken.status == 409
        and taken.body["detail"] == "you already have a bot named 'a'; give the new one another name"
    )
    assert upload(api, token, data, name="c").status == 201
    flood = upload(api, token, data, name="d")
    assert flood.status == 429, flood
    assert "3 submissions in the last hour" in flood.body["detail"]
    assert [row[1] for row in bots(api)] == ["a", "b", "c"]
    assert len({path.parent for path in left_files(api)}) == 3


def test_unpacking_keeps_to_the_folder_and_removes_it_when_refused(tmp_path: Path) -> None:
    data = zipped(("a/bot.py", b"print(1)\n"), ("b.txt", b"hi"))
    found = unpack(io.BytesIO(data), tmp_path / "one", max_bytes=LIMIT)
    assert found == tmp_path / "one" and (found / "a" / "bot.py").read_text() == "print(1)\n"
    twice = tar_gz(member("bot.py"), member("bot.py"))
    with pytest.raises(ArchiveError, match=r"bot\.py: listed twice"):
        unpack(io.BytesIO(twice), tmp_path / "two", max_bytes=LIMIT)
    assert not (tmp_path / "two").exists()
    with pytest.raises(ArchiveError, match="more than 3 files") as refused:
        unpack(
            io.BytesIO(tar_gz(*(member(f"{n}.py") for n in range(4)))),
            tmp_path / "three",
            max_bytes=LIMIT,
            max_entries=3,
        )
    assert not refused.value.too_large and not (tmp_path / "three").exists()
    nested = zipped(*((f"{n}/a/b.py", b"") for n in range(2)))  # 2 files, 4 folders they create
    with pytest.raises(ArchiveError, match="more than 5 files"):
        unpack(io.BytesIO(nested), tmp_path / "four", max_bytes=LIMIT, max_entries=5)


def test_refused_archives_count_against_the_hour(api: Api) -> None:
    token = add(api.db, "ada")
    for name in ("a", "b", "c"):
        assert upload(api, token, HOSTILE["dot-dot in a tar"][0], name=name).status == 422
    flood = upload(api, token, tar_gz(member("bot.py")), name="d")
    assert flood.status == 429 and "3 submissions in the last hour" in flood.body["detail"], flood
    assert bots(api) == []


def test_submit_reads_the_413_of_a_folder_over_the_limit(api: Api, tmp_path: Path) -> None:
    token = add(api.db, "ada")
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "weights.bin").write_bytes(os.urandom(2 * LIMIT))  # does not compress
    server = f"http://{api.host}:{api.port}"
    code, output = cli(
        "submit",
        "--server",
        server,
        "--token",
        token,
        "--name",
        "big",
        "--dir",
        str(folder),
        "--command",
        "x",
    )
    assert code == 2 and output.count("\n") == 1, output
    assert "413 the request body is larger than 1,048,576 bytes" in output
    assert bots(api) == [] and left_files(api) == []


def test_the_archive_upload_and_the_participant_s_routes_are_documented(api: Api) -> None:
    with closing(http.client.HTTPConnection(api.host, api.port, timeout=30)) as connection:
        connection.request("GET", "/openapi.json")
        paths = json.loads(connection.getresponse().read())["paths"]
    upload = paths["/api/ladder/bots/archive"]["post"]
    assert {"application/gzip", "application/zip"} <= set(upload["requestBody"]["content"])
    assert {parameter["name"] for parameter in upload["parameters"]} == {"name", "command"}
    assert {"201", "401", "409", "413", "422", "429"} <= set(upload["responses"])
    assert {"/api/ladder/matches", "/api/ladder/matches/{match_id}/replay", "/api/ladder/bots/{name}"} <= set(
        paths
    )


def test_an_archive_bot_is_run_from_its_folder_in_the_sandbox_even_where_the_ladder_runs_none(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ladder.yaml"
    path.write_text("name: unsandboxed\ngame: saint_malo\nplayers: 2\nsandbox: false\n")
    ladder = load_ladder(path)
    add(ladder.database_path, "ada")
    folder = tmp_path / "program"
    folder.mkdir()
    (folder / "bot.py").write_text(
        "import os, sys\n"
        "if os.environ.get('SMTOURNEY_ADDRESS') != 'unix:/run/smtourney/bot.sock' or "
        f"os.path.exists({str(ladder.database_path)!r}):\n"
        "    sys.exit('not in the sandbox')\n"
        "from bots.random import main\n"
        "main()\n"
    )
    (folder / "run.sh").write_text(f"#!/bin/sh\nexec {sys.executable} bot.py\n")
    (folder / "run.sh").chmod(0o755)
    with closing(Store.open(ladder.database_path)) as store:
        ladders = LadderStore(store)
        (ada,) = ladders.participants()
        assert ada.id is not None
        spec = {"dir": str(folder), "command": "./run.sh"}  # found in the folder, where the sandbox starts
        ladders.add_bot(ada.id, "boxed", spec, mu=25, sigma=8)
        assert validate_next(ladders, ladder, tmp_path / "logs")
        (row,) = ladders.bots()
    assert (row.status, row.reason) == ("active", None)
    assert (
        (tmp_path / "logs" / "checks" / f"bot-{row.id}" / "check.txt").read_text().startswith("PASS health")
    )


def started_upload(api: Api, token: str) -> http.client.HTTPConnection:
    """An archive upload left under way: its headers and the first bytes of its body sent."""
    connection = http.client.HTTPConnection(api.host, api.port, timeout=30)
    connection.putrequest("POST", "/api/ladder/bots/archive?name=slow&command=x")
    connection.putheader("Authorization", f"Bearer {token}")
    connection.putheader("Content-Length", "100000")
    connection.endheaders()
    connection.send(b"\x1f\x8b")
    return connection


def test_one_upload_at_a_time_per_participant_and_a_cut_upload_leaves_nothing(api: Api) -> None:
    ada, bob = add(api.db, "ada"), add(api.db, "bob")
    deadline = time.monotonic() + 30
    while True:  # until an upload is seen under way (one sent meanwhile may have taken its turn)
        slow = started_upload(api, ada)
        time.sleep(0.1)
        second = upload(api, ada, b"")  # b"": refused if it gets through
        if second.status == 429:
            break
        slow.close()
        assert second.status == 422 and time.monotonic() < deadline, second
    with closing(slow):
        assert second.body == {"detail": "another upload of yours is under way; send one at a time"}
        assert upload(api, bob, tar_gz(member("bot.py")), name="other").status == 201
    deadline = time.monotonic() + 30
    while (third := upload(api, ada, tar_gz(member("bot.py")), name="next")).status == 429:
        assert time.monotonic() < deadline, "the cut upload is still counted as under way"
        time.sleep(0.05)
    assert third.status == 201, third
    assert [row[1] for row in bots(api)] == ["other", "next"]
    assert not any(path.parent.name == "incoming" for path in left_files(api))
