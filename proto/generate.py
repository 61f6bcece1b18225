"""Regenerate the Python protocol modules in ``sdk/protocol`` from ``proto/``.

    python proto/generate.py            # write sdk/protocol
    python proto/generate.py --check    # exit 1 if the checked-in modules are stale

protoc names Python modules after the proto packages (``smtourney.v1``); the
modules live under ``sdk.protocol`` instead, so imports are rewritten.
Typed stubs (``.pyi``) come from mypy-protobuf.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
OUT_DIR = ROOT / "sdk" / "protocol"
_IMPORT = re.compile(r"^(from|import) smtourney(\.|\b)", re.MULTILINE)


def generate(out_dir: Path) -> None:
    """Compile every .proto under proto/ into ``out_dir`` (a package tree)."""
    import grpc_tools
    from grpc_tools import protoc

    bin_dir = Path(sys.executable).parent
    protos = sorted(str(p.relative_to(PROTO_DIR)) for p in PROTO_DIR.rglob("*.proto"))
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "protoc",
            f"-I{PROTO_DIR}",
            f"-I{Path(grpc_tools.__file__).parent / '_proto'}",
            f"--plugin=protoc-gen-mypy={bin_dir / 'protoc-gen-mypy'}",
            f"--plugin=protoc-gen-mypy_grpc={bin_dir / 'protoc-gen-mypy_grpc'}",
            f"--python_out={tmp}",
            f"--grpc_python_out={tmp}",
            f"--mypy_out={tmp}",
            f"--mypy_grpc_out={tmp}",
            *protos,
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        generated = Path(tmp) / "smtourney"
        for path in sorted(generated.rglob("*.py*")):
            target = out_dir / path.relative_to(generated)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = _IMPORT.sub(lambda m: f"{m.group(1)} sdk.protocol{m.group(2)}", path.read_text())
            target.write_text(text)
        for package in {out_dir, *(p.parent for p in out_dir.rglob("*_pb2.py"))}:
            init = package / "__init__.py"
            if not init.exists():
                init.write_text("")


def _tree(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): p.read_text()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only compare with the checked-in modules")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "protocol"
        (fresh).mkdir()
        (fresh / "__init__.py").write_text((OUT_DIR / "__init__.py").read_text())
        generate(fresh)
        if args.check:
            stale = _tree(fresh) != _tree(OUT_DIR)
            print(
                "sdk/protocol is stale: run python proto/generate.py"
                if stale
                else "sdk/protocol is up to date"
            )
            raise SystemExit(1 if stale else 0)
        shutil.rmtree(OUT_DIR)
        shutil.copytree(fresh, OUT_DIR)


if __name__ == "__main__":
    main()
