"""The sandbox of a launched bot: bubblewrap (``bwrap``) around its command.

Inside, a bot sees only what it needs to run: the system directories and the
Python environment, read-only; its own program directory, read-only; a private
``/tmp`` of bounded size; its own ``/proc`` (a PID namespace of its own) and a
minimal ``/dev``; and one writable directory holding the Unix socket it listens
on. It has no network beyond a loopback of its own (the referee connects through
the socket; a bot that listens on TCP at ``SMTOURNEY_PORT`` on that loopback
instead is reached through a relay the guard runs inside), a scrubbed
environment, a limit on its processes, and it dies with its parent. Nothing else
of the organiser's file system exists for it: not the bracket (and with it the
seed), not the database, not other bots' logs or programs.

A bot never runs as root. Started by an unprivileged user, bubblewrap puts it in a user
namespace of its own, where it is that user. Started by root, bubblewrap sets the
sandbox up as root (so it can show any folder) without a user namespace, and the guard
inside becomes ``BOT_USER`` (nobody) before it starts the bot: a user namespace mapping
the bot to nobody would not do, as its files' owner would still be the host's root, and
root-only files (``/etc/shadow``) would be readable. The bot can read only what others
may read: its program folder and the Python environment must be readable by all.

:class:`Sandbox` builds the ``bwrap`` argument list and owns the socket's
directory; :mod:`server.guard` applies the process limit inside it.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import os
import shutil
import site
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import guard

BWRAP = "bwrap"


def sandbox_available() -> bool:
    """Whether bubblewrap is on this machine's ``PATH``, so that bots can be launched sandboxed."""
    return shutil.which(BWRAP) is not None


SOCKET_DIR = "/run/smtourney"
SOCKET_PATH = f"{SOCKET_DIR}/bot.sock"
ADDRESS = f"unix:{SOCKET_PATH}"
"""Where every sandboxed bot listens, as the bot sees it (``SMTOURNEY_ADDRESS``)."""
PORT = 50051
"""The TCP port a sandboxed bot may listen on instead (``SMTOURNEY_PORT``), on the sandbox's own
loopback: any port is free there, so it is always the same one."""
GUARD_PATH = "/run/smtourney-guard.py"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""Read-only in every sandbox: programs, libraries, and the configuration they read (locale, certificates)."""
BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "PYTHONDONTWRITEBYTECODE": "1",
}
"""The whole environment of a sandboxed bot, besides its entrant's ``env``, ``SMTOURNEY_ADDRESS``
and ``SMTOURNEY_PORT``."""
BOT_USER = (65534, 65534)
"""The user and group (nobody, nogroup) a bot runs as when the sandbox is started by root."""
_AS_ROOT_NAMESPACES = (
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-uts",
    "--unshare-cgroup-try",
    *("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"),  # for the guard inside to drop root
)
"""Every namespace of ``--unshare-all`` but the user namespace, for a sandbox started by root."""
_PYTHONS = ("python", "python3")
_PREFIX = "smtourney-bot-"
"""Socket folders and cgroups are named ``smtourney-bot-<launcher pid>.<its start time>-<random>``:
the start time tells a dead launcher's leftovers from a live one's once its pid is reused."""


class SandboxUnavailableError(OSError):
    """bubblewrap is missing: the bot cannot be launched sandboxed."""


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    """What a sandboxed bot may use besides memory and CPU time."""

    processes: int = 64
    """Processes and threads of the bot, all together."""
    tmp_mb: int = 64
    """Size of its private /tmp."""


@dataclass(frozen=True, slots=True)
class Program:
    """Where a command's program lives: the path shown read-only, and the directory to start in."""

    path: Path | None
    workdir: Path | None


def installed_paths() -> list[Path]:
    """Folders on this interpreter's path that packages were installed into besides site-packages
    (``pip install --target``, then ``PYTHONPATH``): those holding a ``*.dist-info``. A source tree
    on the path is not among them, so a working folder with a bracket in it is never shown; nor is a
    folder inside site-packages that a package put on the path when imported (Ray's vendored
    packages), so the bot's environment does not depend on what the referee has imported."""
    site_packages = [Path(p) for p in site.getsitepackages()]
    found = []
    for entry in sys.path:
        path = Path(entry) if entry else None
        if (
            path is not None
            and not any(path.is_relative_to(packages) for packages in site_packages)
            and path.is_dir()
            and any(path.glob("*.dist-info"))
        ):
            found.append(path)
    return found


def python_environment() -> list[Path]:
    """The interpreter's prefixes, its site-packages, other install folders and the sources of
    editable installs."""
    paths = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    paths.update(Path(p) for p in site.getsitepackages())
    paths.update(installed_paths())
    for name, module in list(sys.modules.items()):
        mapping = getattr(module, "MAPPING", None) if name.startswith("__editable__") else None
        if isinstance(mapping, dict):
            paths.update(Path(p) for p in mapping.values())
    return _outermost(p for p in paths if p.exists())


def _outermost(paths: Iterable[Path]) -> list[Path]:
    """``paths`` without those inside another one, or inside a system directory."""
    chosen: list[Path] = []
    for path in sorted({p.resolve() for p in paths}, key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(c) for c in [*chosen, *map(Path, SYSTEM_DIRS)]):
            chosen.append(path)
    return chosen


def find_program(words: Sequence[str], env: Mapping[str, str], cwd: Path) -> Program:
    """The program of a command: a Python script's or module's directory, or an executable's.

    A module run with ``-m`` is looked for where Python would look, in ``PYTHONPATH`` and the
    working directory; one found in the Python environment needs nothing more.
    """
    if not words:
        return Program(None, None)
    first = Path(words[0])
    if Path(first).name.startswith(_PYTHONS) or str(first) == sys.executable:
        return _python_program(words[1:], env, cwd)
    if "/" in words[0]:
        return _directory_of(cwd / first)
    found = shutil.which(words[0], path=env.get("PATH", os.environ.get("PATH")))
    if found is not None and not any(Path(found).resolve().is_relative_to(d) for d in SYSTEM_DIRS):
        return _directory_of(Path(found))
    for word in words[1:]:  # an interpreter from the system: its first file argument is the program
        if not word.startswith("-") and (cwd / word).is_file():
            return _directory_of(cwd / word)
    return Program(None, None)


def _python_program(args: Sequence[str], env: Mapping[str, str], cwd: Path) -> Program:
    skip = False
    for index, word in enumerate(args):
        if skip:
            skip = False
        elif word == "-m" and index + 1 < len(args):
            return _module_program(args[index + 1], env, cwd)
        elif word == "-c":
            return Program(None, None)
        elif word in ("-X", "-W"):  # options that take the next word
            skip = True
        elif not word.startswith("-"):
            return _directory_of(cwd / word) if (cwd / word).is_file() else Program(None, None)
    return Program(None, None)


def _module_program(module: str, env: Mapping[str, str], cwd: Path) -> Program:
    top = module.split(".", maxsplit=1)[0]
    roots = [Path(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p] + [cwd]
    for root in roots:
        spec = importlib.machinery.PathFinder.find_spec(top, [str(cwd / root)])
        if spec is not None and spec.origin not in (None, "namespace"):
            origin = Path(str(spec.origin)).resolve()
            path = origin.parent if origin.name == "__init__.py" else origin
            return Program(path, (cwd / root).resolve())
    return Program(None, None)


def _directory_of(path: Path) -> Program:
    directory = path.resolve().parent
    return Program(directory, directory)


def absolute_words(words: Sequence[str], cwd: Path) -> list[str]:
    """The program found on the organiser's ``PATH`` and relative paths of existing files made
    absolute: inside, the bot starts elsewhere with a plain ``PATH``."""
    absolute = [
        str((cwd / w).resolve()) if "/" in w and not w.startswith("/") and (cwd / w).exists() else w
        for w in words
    ]
    if absolute and "/" not in absolute[0]:
        absolute[0] = shutil.which(absolute[0]) or absolute[0]
    return absolute


class Sandbox:
    """One bot's sandbox: its socket directory on the host and its ``bwrap`` command line."""

    def __init__(
        self,
        program: Program,
        env: Mapping[str, str],
        limits: SandboxLimits = SandboxLimits(),
    ) -> None:
        self.program = program
        self.env = {**BASE_ENV, **env, "SMTOURNEY_ADDRESS": ADDRESS, "SMTOURNEY_PORT": str(PORT)}
        extra = os.pathsep.join(str(p) for p in installed_paths())
        if extra:  # the bot finds what the referee finds (game plugins installed with --target)
            self.env["PYTHONPATH"] = os.pathsep.join(filter(None, [self.env.get("PYTHONPATH"), extra]))
        self.limits = limits
        sweep_leftovers()
        self.socket_dir = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{_launcher_id(os.getpid())}-"))
        self.user = BOT_USER if os.geteuid() == 0 else None
        """Whom the guard inside becomes before starting the bot (None: it stays the launcher's user)."""
        if self.user is not None:  # the bot makes its socket there
            os.chown(self.socket_dir, *self.user)
        self.cgroup = pids_cgroup(self.socket_dir.name, limits.processes)

    @property
    def address(self) -> str:
        """Where the referee reaches the bot: the socket as seen from outside."""
        return f"unix:{self.socket_dir / 'bot.sock'}"

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """``argv`` run inside the sandbox, under the process limit."""
        bwrap = shutil.which(BWRAP)
        if bwrap is None:
            raise SandboxUnavailableError(
                "bubblewrap (bwrap) is not installed: install the package bubblewrap, "
                "or give the entrant sandbox: false"
            )
        namespaces = ["--unshare-all"] if self.user is None else list(_AS_ROOT_NAMESPACES)
        args = [bwrap, *namespaces, "--die-with-parent", "--clearenv"]
        args += ["--proc", "/proc", "--dev", "/dev"]  # first: a program may live under /tmp
        args += ["--size", str(self.limits.tmp_mb * 1024 * 1024), "--perms", "1777", "--tmpfs", "/tmp"]
        for directory in SYSTEM_DIRS:
            args += _system_mount(directory)
        shown = sorted(python_environment())
        if self.program.path is not None:
            shown.append(self.program.path)
        parents = {parent for path in [*shown, Path(SOCKET_DIR)] for parent in path.parents} - {Path("/")}
        for parent in sorted(parents):
            # made by bubblewrap, these would copy the host folder's mode (a 0700 home is not the bot's)
            args += ["--perms", "0755", "--dir", str(parent)]
        for path in shown:
            args += ["--ro-bind", str(path), str(path)]
        args += ["--bind", str(self.socket_dir), SOCKET_DIR, "--ro-bind", guard.__file__, GUARD_PATH]
        args += ["--chdir", str(self.program.workdir or "/")]
        for name, value in self.env.items():
            args += ["--setenv", name, value]
        inner = [sys.executable, "-I", "-S", GUARD_PATH, "-", "-", "-"]
        options = ["--lifeline", "watch"]
        if self.user is not None:
            options += ["--user", ":".join(map(str, self.user))]
        if self.user is None or self.cgroup is None:
            # Under a shared user the per-user count would add up every bot's processes: the cgroup counts.
            options += ["--processes", str(self.limits.processes)]
        options += ["--relay-socket", SOCKET_PATH, "--relay-port", str(PORT)]
        return [*args, "--", *inner, *options, "--", *argv]

    def close(self) -> None:
        """Remove the socket's directory and the cgroup (the bot is gone by now)."""
        with contextlib.suppress(OSError):
            shutil.rmtree(self.socket_dir)
        if self.cgroup is not None:
            for _ in range(50):  # the kernel frees a cgroup a moment after its last process is reaped
                try:
                    self.cgroup.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def sweep_leftovers() -> None:
    """Remove the socket folders and cgroups of launchers that were killed before cleaning up."""
    places = [Path(tempfile.gettempdir()), *_pids_parents()]
    for place in places:
        for path in place.glob(f"{_PREFIX}*"):
            launcher = path.name.removeprefix(_PREFIX).split("-")[0]
            pid, _, started = launcher.partition(".")
            if not pid.isdigit():
                continue
            running = _launcher_id(int(pid))  # a name without a start time: any process of that pid
            if running is None or (started and running != launcher):
                with contextlib.suppress(OSError):
                    if place == places[0]:
                        shutil.rmtree(path)
                    else:
                        path.rmdir()  # an empty cgroup only: one whose processes are all gone


def _launcher_id(pid: int) -> str | None:
    """``PID.START`` of a live process (its start time in clock ticks since boot); None once gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return f"{pid}.{int(stat.read().rsplit(b')', 1)[1].split()[19])}"
    except (OSError, IndexError, ValueError):
        return None


def pids_cgroup(name: str, limit: int) -> Path | None:
    """A pids cgroup of at most ``limit`` tasks, where one can be made (as root).

    For root the process limit of :mod:`server.guard` does not hold (the kernel exempts
    root from RLIMIT_NPROC), so the sandbox also puts the bot in a cgroup of its own.
    """
    for parent in _pids_parents():
        try:
            cgroup = parent / name
            cgroup.mkdir()
        except OSError:
            continue
        try:
            (cgroup / "pids.max").write_text(str(limit))
        except OSError:
            cgroup.rmdir()
            continue
        return cgroup
    return None


def _pids_parents() -> list[Path]:
    """The cgroup v1 pids hierarchy, and this process's own cgroup v2 when it delegates pids."""
    parents = []
    v1 = Path("/sys/fs/cgroup/pids")
    if (v1 / "pids.max").exists() or (v1 / "cgroup.procs").exists():
        parents.append(v1)
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            if line.startswith("0::"):
                own = Path("/sys/fs/cgroup") / line[3:].lstrip("/")
                if "pids" in (own / "cgroup.subtree_control").read_text().split():
                    parents.append(own)
    return [p for p in parents if os.access(p, os.W_OK)]


def _system_mount(directory: str) -> list[str]:
    path = Path(directory)
    if path.is_symlink():
        return ["--symlink", os.readlink(path), directory]
    if path.is_dir():
        return ["--ro-bind", directory, directory]
    return []
