"""Unpacking a submitted program folder (a .zip or a .tar.gz) without trusting it.

An archive comes from a participant, so every entry is checked before it is written: a relative
path that stays inside the folder (no ``..``, no absolute path), a regular file or a folder (no
symlink, hard link, device or FIFO), at most :data:`MAX_ENTRIES` entries (the folders a path
creates counted too), and unpacked sizes within the ladder's limit, each folder counted as
:data:`FOLDER_BYTES` (what it takes on disk). Declared sizes are added up before a file is written,
and the bytes written counted as well; a zip entry that holds more than it declares is cut at its
declared size by :mod:`zipfile` and then fails its CRC (every entry is read to its end, so every
CRC is checked), so a zip bomb that lies stops there; a compressed tar is read through a counter,
so not even its headers are expanded past the limit in memory, and to the end of its compressed
stream, so a missing trailer, a wrong CRC or trailing garbage is refused as damaged. On any refusal
the folder being filled is removed: a refused archive leaves nothing behind.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import shutil
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import IO

__all__ = ["MAX_ENTRIES", "ArchiveError", "unpack"]

MAX_ENTRIES = 10_000
"""Files and folders one archive may hold (a Node.js bot with its node_modules has about 1,300)."""
MAX_PATH_BYTES = 1024
"""Longest path of an entry, in UTF-8."""
MAX_NAME_BYTES = 255
"""Longest component of a path, in UTF-8 (what Linux file systems take)."""
FOLDER_BYTES = 4096
"""What a folder counts towards the size limit: the block it takes on disk, however empty."""
_HEADER_ALLOWANCE = 2048
"""Bytes of tar headers allowed per entry beyond the files' contents (a header, long names)."""
_CHUNK = 1024 * 1024

_DAMAGED = (
    tarfile.TarError,
    zipfile.BadZipFile,
    EOFError,
    zlib.error,
    lzma.LZMAError,
    OSError,
    NotImplementedError,  # a zip compression method the standard library lacks
)


class ArchiveError(ValueError):
    """An archive refused, with one line saying why; ``too_large`` when a size limit was passed."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


def unpack(archive: IO[bytes], destination: Path, *, max_bytes: int, max_entries: int = MAX_ENTRIES) -> Path:
    """Unpack the seekable ``archive`` into the new folder ``destination``; the program folder: the
    archive's only top-level folder if it has one and nothing beside it, else ``destination``.

    Raises :class:`ArchiveError` after removing ``destination`` when anything is refused.
    """
    destination.mkdir(parents=True)
    try:
        _Unpacker(destination, max_bytes, max_entries).unpack(archive)
        entries = list(destination.iterdir())
        if not any(path.is_file() for path in destination.rglob("*")):
            raise ArchiveError("the archive holds no file")
    except ArchiveError:
        shutil.rmtree(destination, ignore_errors=True)
        raise
    except _DAMAGED as exc:
        shutil.rmtree(destination, ignore_errors=True)
        raise ArchiveError(f"the archive is damaged or truncated: {_reason(exc)}") from None
    except BaseException:
        shutil.rmtree(destination, ignore_errors=True)
        raise
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else destination


class _Unpacker:
    """One archive's unpacking: the entries and bytes written so far, against the limits."""

    def __init__(self, destination: Path, max_bytes: int, max_entries: int) -> None:
        self.destination = destination
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.entries = 0
        self.created = 0
        """Files and folders written, implicit parent folders included."""
        self.declared = 0
        self.written = 0

    def unpack(self, archive: IO[bytes]) -> None:
        head = archive.read(512)
        archive.seek(0)
        if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
            self._zip(archive)
            return
        if head[257:262] == b"ustar":
            self._tar(archive)
            return
        decompressed = _decompressed(head, archive)
        if decompressed is not None:
            with decompressed:
                self._tar(decompressed)
            return
        raise ArchiveError("not an archive: send the program folder as a .zip or a .tar.gz")

    # --- the two formats ----------------------------------------------------------------------------

    def _zip(self, archive: IO[bytes]) -> None:
        with zipfile.ZipFile(archive) as zipped:
            infos = zipped.infolist()
            if len(infos) > self.max_entries:
                raise self._too_many()
            for info in infos:  # everything is checked before the first byte is written
                self._entry_path(info.filename)
                kind = stat.S_IFMT(info.external_attr >> 16)
                if kind == stat.S_IFLNK:
                    raise ArchiveError(f"{info.filename}: symbolic links are refused; pack the file itself")
                if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                    raise ArchiveError(f"{info.filename}: device files, FIFOs and sockets are refused")
                if info.flag_bits & 0x1:
                    raise ArchiveError(f"{info.filename}: encrypted entries are refused")
                self._declare(info.filename, FOLDER_BYTES if info.is_dir() else info.file_size)
            for info in infos:
                path = self._entry_path(info.filename)
                if path is None:
                    continue
                if info.is_dir():
                    self._folder(path)
                    continue
                executable = bool((info.external_attr >> 16) & 0o111)
                with zipped.open(info) as source:
                    self._file(path, source, executable, info.filename)

    def _tar(self, stream: IO[bytes] | io.BufferedIOBase) -> None:
        capped = _Capped(stream, self.max_bytes + _HEADER_ALLOWANCE * (self.max_entries + 1), self._limit)
        with tarfile.open(fileobj=capped, mode="r|") as tar:  # a stream: read once, in order
            for member in tar:
                self.entries += 1
                if self.entries > self.max_entries:
                    raise self._too_many()
                path = self._entry_path(member.name)
                if member.issym() or member.islnk():
                    kind = "symbolic links" if member.issym() else "hard links"
                    raise ArchiveError(f"{member.name}: {kind} are refused; pack the file itself")
                if member.issparse() or not (member.isfile() or member.isdir()):
                    raise ArchiveError(f"{member.name}: device files, FIFOs and sparse files are refused")
                try:  # the standard library's own checks for untrusted archives, on top of ours
                    tarfile.data_filter(member, str(self.destination))
                except tarfile.FilterError as exc:
                    raise ArchiveError(f"{member.name}: refused: {exc}") from None
                self._declare(member.name, FOLDER_BYTES if member.isdir() else member.size)
                if path is None:
                    continue
                if member.isdir():
                    self._folder(path)
                    continue
                source = tar.extractfile(member)
                assert source is not None  # a regular file
                with source:
                    self._file(path, source, bool(member.mode & 0o111), member.name)
        while capped.read(_CHUNK):  # to the end of a compressed stream: its trailer and CRC are checked
            pass

    # --- one entry ----------------------------------------------------------------------------------

    def _entry_path(self, name: str) -> Path | None:
        """Where entry ``name`` goes, or None for the archive's root itself."""
        if "\0" in name or "\\" in name:
            raise ArchiveError(f"{name!r}: a path with a NUL or a backslash is refused")
        if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
            raise ArchiveError(f"{name}: absolute paths are refused; paths are relative to the folder")
        if len(name.encode("utf-8", "surrogateescape")) > MAX_PATH_BYTES:
            raise ArchiveError(f"{name[:80]}...: a path longer than {MAX_PATH_BYTES} bytes is refused")
        parts = [part for part in PurePosixPath(name).parts if part != "."]
        if any(len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES for part in parts):
            raise ArchiveError(
                f"{name[:80]}...: a file or folder name longer than {MAX_NAME_BYTES} bytes is refused"
            )
        if ".." in parts:
            raise ArchiveError(f"{name}: a path with .. is refused; paths stay inside the folder")
        if not parts:
            return None
        path = self.destination.joinpath(*parts)
        assert path.is_relative_to(self.destination)  # guaranteed by the checks above
        return path

    def _declare(self, name: str, size: int) -> None:
        self.declared += size
        if self.declared > self.max_bytes:
            raise ArchiveError(
                f"{name}: the unpacked files pass {_mib(self.max_bytes)}, this ladder's limit",
                too_large=True,
            )

    def _folder(self, path: Path) -> None:
        """Create ``path`` and its missing parents, each counted as an entry and as ``FOLDER_BYTES``."""
        missing = [folder for folder in (path, *path.parents) if folder.is_relative_to(self.destination)]
        for folder in reversed(missing[:-1]):  # the destination itself exists
            if folder.is_dir():
                continue
            self._count_created()
            self.written += FOLDER_BYTES
            self._limit(self.written)
            try:
                folder.mkdir()
            except OSError:  # a file of the same name came first
                raise ArchiveError(f"{folder.relative_to(self.destination)}: listed twice") from None

    def _count_created(self) -> None:
        self.created += 1
        if self.created > self.max_entries:
            raise self._too_many()

    def _file(self, path: Path, source: IO[bytes], executable: bool, name: str) -> None:
        """Copy one file, counting: all files together may not pass the limit."""
        self._folder(path.parent)
        self._count_created()
        try:
            target = path.open("xb")
        except OSError:
            raise ArchiveError(f"{name}: listed twice") from None
        with target:
            while chunk := source.read(_CHUNK):
                self.written += len(chunk)
                self._limit(self.written)
                target.write(chunk)
        path.chmod(0o755 if executable else 0o644)

    def _limit(self, count: int) -> None:
        if count > self.max_bytes + _HEADER_ALLOWANCE * (self.max_entries + 1):
            raise ArchiveError(f"the unpacked archive passes {_mib(self.max_bytes)}", too_large=True)
        if self.written > self.max_bytes:
            raise ArchiveError(
                f"the unpacked files pass {_mib(self.max_bytes)}, this ladder's limit", too_large=True
            )

    def _too_many(self) -> ArchiveError:
        return ArchiveError(f"the archive holds more than {self.max_entries:,} files and folders")


class _Capped(io.RawIOBase):
    """A stream read through a counter: past ``cap`` bytes, ``refuse`` is called (and raises)."""

    def __init__(self, raw: IO[bytes] | io.BufferedIOBase, cap: int, refuse: Callable[[int], None]) -> None:
        super().__init__()
        self._raw, self._cap, self._refuse, self._count = raw, cap, refuse, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        room = self._cap - self._count + 1
        data = self._raw.read(room if size is None or size < 0 else min(size, room))
        self._count += len(data)
        self._refuse(self._count)
        return data


def _decompressed(head: bytes, raw: IO[bytes]) -> io.BufferedIOBase | None:
    """A tar compressed with gzip, bzip2 or xz, read decompressed; None for anything else."""
    if head.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if head.startswith(b"BZh"):
        return bz2.BZ2File(raw, mode="rb")
    if head.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(raw, mode="rb")
    return None


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
