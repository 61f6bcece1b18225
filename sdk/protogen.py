"""Regenerate protocol modules: the lifecycle's, or a game's, from the ``.proto`` files it owns.

    python -m sdk.protogen                  # the lifecycle and every game under sdk/games
    python -m sdk.protogen my_game          # one game by registry name: installed, or sdk/games/my_game
    python -m sdk.protogen path/to/my_game  # one game by its package folder (installed or not)
    python -m sdk.protogen lifecycle        # smtourney.v1 alone
    python -m sdk.protogen --check ...      # change nothing; exit 1 if a module is stale

A game package keeps its ``.proto`` files under ``proto/``, in folders named after their
protobuf package (``proto/smtourney/my_game/v1/my_game.proto``), and its generated modules in
``protocol/`` beside it (``my_game.protocol.my_game_pb2``). The lifecycle service
``smtourney.v1`` stays central (``proto/smtourney/v1/bot.proto``, generated into
``sdk.protocol.v1``); a game's protocol imports it as ``smtourney/v1/bot.proto``.

protoc names Python modules after the proto folders (``smtourney.my_game.v1``), so imports are
rewritten to where the modules really live. Typed stubs (``.pyi``) come from mypy-protobuf
(pinned with grpcio-tools in the ``dev`` extra, so the checked-in modules are reproducible).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

SDK_DIR = Path(__file__).resolve().parent
GAMES_DIR = SDK_DIR / "games"
ENTRY_POINT_GROUP = "smtourney.games"
_FROM_IMPORT = re.compile(r"^from ([\w.]+) import ", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class ProtocolTree:
    """A folder of ``.proto`` files and the Python package its generated modules go to.

    ``keep_folders``: the lifecycle keeps the folder below ``smtourney`` (``sdk.protocol.v1``);
    a game's modules all sit in its one ``protocol`` package. ``grpc_stubs``: the lifecycle's
    service is served and called through generated stubs; a game's decision service is not (the
    referee and the bot server derive it from the plugin's decision table), so it needs none.
    """

    #: what to give ``python -m sdk.protogen`` to regenerate this tree alone
    label: str
    proto_dir: Path
    out_dir: Path
    out_package: str
    keep_folders: bool = False
    grpc_stubs: bool = False

    def protos(self) -> list[Path]:
        return sorted(p.relative_to(self.proto_dir) for p in self.proto_dir.rglob("*.proto"))

    def subfolders(self, proto_folder: Path) -> tuple[str, ...]:
        return proto_folder.parts[1:] if self.keep_folders else ()

    def packages(self) -> dict[str, str]:
        """Dotted proto folder -> Python package of the modules generated from it."""
        return {
            ".".join(p.parent.parts): ".".join((self.out_package, *self.subfolders(p.parent)))
            for p in self.protos()
        }


LIFECYCLE = ProtocolTree(
    label="lifecycle",
    proto_dir=SDK_DIR.parent / "proto",
    out_dir=SDK_DIR / "protocol",
    out_package="sdk.protocol",
    keep_folders=True,
    grpc_stubs=True,
)


def game_tree(folder: Path) -> ProtocolTree:
    """The protocol of the game package in ``folder``: ``proto/`` in, ``protocol/`` out."""
    folder = folder.resolve()
    if not (folder / "proto").is_dir():
        raise SystemExit(f"{folder}: no proto/ folder (a game keeps its .proto files in <package>/proto/)")
    parts = [folder.name]
    parent = folder.parent
    while (parent / "__init__.py").is_file():
        parts.insert(0, parent.name)
        parent = parent.parent
    return ProtocolTree(
        label=str(_shown(folder)),
        proto_dir=folder / "proto",
        out_dir=folder / "protocol",
        out_package=".".join([*parts, "protocol"]),
    )


def _shown(path: Path) -> Path:
    """``path`` relative to the working directory when it lies below it."""
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path


def installed_game_folder(name: str) -> Path | None:
    """The package folder of the installed game ``name``, found without importing its plugin."""
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name:
            spec = importlib.util.find_spec(entry.module)
            if spec is None or spec.origin is None:
                return None
            if spec.submodule_search_locations:
                return Path(next(iter(spec.submodule_search_locations)))
            return Path(spec.origin).parent
    return None


def game_folder(target: str) -> Path:
    """The package folder ``target`` names: a folder, an installed game, or a game folder under
    ``sdk/games`` (a game added there works before the project is reinstalled to register it)."""
    if Path(target).is_dir():
        return Path(target)
    found = installed_game_folder(target)
    if found is not None:
        return found
    if (GAMES_DIR / target / "proto").is_dir():
        return GAMES_DIR / target
    raise SystemExit(
        f"no installed game named {target!r} and no {GAMES_DIR / target}/proto (give its package folder)"
    )


def _generated(tree: ProtocolTree) -> dict[Path, str]:
    """Every module protoc makes of ``tree``, by path under ``tree.out_dir``, imports rewritten."""
    import grpc_tools
    from grpc_tools import protoc

    protos = tree.protos()
    if not protos:
        raise SystemExit(f"{tree.proto_dir}: no .proto files")
    packages = {**LIFECYCLE.packages(), **tree.packages()}
    bin_dir = Path(sys.executable).parent
    modules: dict[Path, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        stubs = [
            f"--plugin=protoc-gen-mypy_grpc={bin_dir / 'protoc-gen-mypy_grpc'}",
            f"--grpc_python_out={tmp}",
            f"--mypy_grpc_out={tmp}",
        ]
        args = [
            "protoc",
            f"-I{tree.proto_dir}",
            *([f"-I{LIFECYCLE.proto_dir}"] if tree is not LIFECYCLE else []),
            f"-I{Path(grpc_tools.__file__).parent / '_proto'}",
            f"--plugin=protoc-gen-mypy={bin_dir / 'protoc-gen-mypy'}",
            f"--python_out={tmp}",
            f"--mypy_out={tmp}",
            *(stubs if tree.grpc_stubs else []),
            *map(str, protos),
        ]
        if protoc.main(args) != 0:
            raise SystemExit(f"protoc failed on {tree.proto_dir}")
        for path in sorted(Path(tmp).rglob("*.py*")):
            relative = path.relative_to(tmp)
            target = Path(*tree.subfolders(relative.parent), relative.name)
            if target in modules:
                raise SystemExit(f"{tree.proto_dir}: two .proto files make {target}; rename one")
            modules[target] = _FROM_IMPORT.sub(
                lambda m: f"from {packages.get(m.group(1), m.group(1))} import ", path.read_text()
            )
    for package in {Path(*m.parts[:i]) for m in list(modules) for i in range(len(m.parts))}:
        init = tree.out_dir / package / "__init__.py"
        modules[package / "__init__.py"] = init.read_text() if init.is_file() else ""
    return modules


def _checked_in(tree: ProtocolTree) -> dict[Path, str]:
    if not tree.out_dir.is_dir():
        return {}
    return {
        p.relative_to(tree.out_dir): p.read_text()
        for p in sorted(tree.out_dir.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def regenerate(tree: ProtocolTree, *, check: bool) -> bool:
    """Bring ``tree``'s modules up to date (or, with ``check``, only compare); True if they were."""
    fresh = _generated(tree)
    current = _checked_in(tree)
    if check or fresh == current:
        return fresh == current
    for stale in current.keys() - fresh.keys():
        (tree.out_dir / stale).unlink()
    for path, text in fresh.items():
        (tree.out_dir / path).parent.mkdir(parents=True, exist_ok=True)
        (tree.out_dir / path).write_text(text)
    return False


def trees(targets: Sequence[str]) -> list[ProtocolTree]:
    """The trees named on the command line: registry names or package folders."""
    if not targets:
        built_in = sorted(p.parent for p in GAMES_DIR.glob("*/proto"))
        return [LIFECYCLE, *map(game_tree, built_in)]
    return [LIFECYCLE if target == LIFECYCLE.label else game_tree(game_folder(target)) for target in targets]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sdk.protogen",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "games", nargs="*", help="registry names, package folders or 'lifecycle' (default: all built-in)"
    )
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a module is stale")
    args = parser.parse_args(argv)
    stale = False
    for tree in trees(args.games):
        current = regenerate(tree, check=args.check)
        where = _shown(tree.out_dir)
        if current:
            print(f"{where}: up to date")
        elif args.check:
            stale = True
            print(f"{where}: stale (run python -m sdk.protogen {tree.label})")
        else:
            print(f"{where}: regenerated")
    raise SystemExit(1 if stale else 0)


if __name__ == "__main__":
    main()
