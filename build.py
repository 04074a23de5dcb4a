#!/usr/bin/env python3
"""AgentLite build entry point.

python build.py                 build dist/ (incremental)
python build.py serve [--port N]  build if needed, serve dist/ at http://127.0.0.1:8000
python build.py test            install test dependencies, build, run every check and test
python build.py check           format, lint, types and unit tests (the pre-commit gate)
python build.py bench [--only NAME,...] [--json FILE] [--markdown FILE]   run the benchmarks
"""

from __future__ import annotations

import argparse
import sys

from buildsys.common import BuildError


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Build, serve, test and benchmark AgentLite.")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build if needed and serve dist/")
    serve.add_argument("--port", type=int, default=8000)
    sub.add_parser("test", help="install test dependencies, build, run all checks and tests")
    sub.add_parser("check", help="format, lint, types, unit tests")
    bench = sub.add_parser("bench", help="run the benchmarks")
    bench.add_argument("--only", default="", help="comma-separated benchmark names")
    bench.add_argument("--json", default=None, help="also write the figures to this file")
    bench.add_argument("--markdown", default=None, help="also write the table and the machine to this file")
    args, extra = parser.parse_known_args(argv)
    try:
        return dispatch(args, extra)
    except BuildError as exc:
        print(f"[build] error: {exc}", file=sys.stderr, flush=True)
        return 2
    except KeyboardInterrupt:
        return 130


def dispatch(args: argparse.Namespace, extra: list[str]) -> int:
    from buildsys.build import assemble
    from buildsys.testing import gate

    if args.command == "test":
        return gate.test(extra)
    if args.command == "check":
        return gate.check(extra)
    assemble.build()
    if args.command == "serve":
        from buildsys.build.serve import serve

        serve(args.port)
    elif args.command == "bench":
        from buildsys.bench.runner import bench

        return bench([n for n in args.only.split(",") if n], args.json, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
