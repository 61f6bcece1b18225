"""A bare grpcio echo server: the floor a decision RPC cannot go below.

One unary method, ``/bench.Echo/Echo``, that returns its request bytes as they
came (no protobuf, no SDK). It is served like a bot (same thread pool size,
same message limit, 127.0.0.1), so ``rpc_overhead.py`` compares like with like.

    python -m benchmarks.echo_server --port 50051   (or SMTOURNEY_ADDRESS=unix:/path/echo.sock)
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from concurrent import futures

import grpc

from sdk.serve import ADDRESS_ENV, MAX_MESSAGE_BYTES, PORT_ENV

SERVICE = "bench.Echo"
METHOD = f"/{SERVICE}/Echo"


def _echo(request: bytes, context: grpc.ServicerContext) -> bytes:
    return request


def serve(address: str, max_workers: int = 4) -> tuple[grpc.Server, int]:
    """Start the echo server (bytes in, the same bytes out) on a gRPC address (``host:port`` or
    ``unix:/path``), as launched bots listen; return it and the bound port (TCP only)."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers),
        options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES), ("grpc.so_reuseport", 0)],
    )
    # No (de)serializers: grpcio hands the raw request bytes over and sends the reply bytes as they are.
    handler = grpc.method_handlers_generic_handler(
        SERVICE, {"Echo": grpc.unary_unary_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    bound = server.add_insecure_port(address)
    if bound == 0:
        raise OSError(f"cannot listen on {address}")
    server.start()
    return server, bound


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve a bare gRPC echo method.")
    parser.add_argument("--port", type=int, default=int(os.environ.get(PORT_ENV, "0")))
    args = parser.parse_args()
    # A sandboxed process is given a Unix socket; one run with sandbox: false a TCP port.
    address = os.environ.get(ADDRESS_ENV) or f"127.0.0.1:{args.port}"
    server, port = serve(address)
    print(f"echo serving on {address if address.startswith('unix:') else f'127.0.0.1:{port}'}",
          file=sys.stderr, flush=True)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    server.stop(0.5).wait()


if __name__ == "__main__":
    main()
