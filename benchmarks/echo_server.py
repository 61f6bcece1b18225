"""A bare grpcio echo server: the floor a decision RPC cannot go below.

One unary method, ``/bench.Echo/Echo``, that returns its request bytes as they
came (no protobuf, no SDK). It is served like a bot (same thread pool size,
same message limit, 127.0.0.1), so ``rpc_overhead.py`` compares like with like.

    python -m benchmarks.echo_server --port 50051
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from concurrent import futures

import grpc

from sdk.serve import MAX_MESSAGE_BYTES, PORT_ENV

SERVICE = "bench.Echo"
METHOD = f"/{SERVICE}/Echo"


def _echo(request: bytes, context: grpc.ServicerContext) -> bytes:
    return request


def serve(port: int, host: str = "127.0.0.1", max_workers: int = 4) -> tuple[grpc.Server, int]:
    """Start the echo server (bytes in, the same bytes out); return it and its port."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers),
        options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES), ("grpc.so_reuseport", 0)],
    )
    # No (de)serializers: grpcio hands the raw request bytes over and sends the reply bytes as they are.
    handler = grpc.method_handlers_generic_handler(
        SERVICE, {"Echo": grpc.unary_unary_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((handler,))
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise OSError(f"cannot listen on {host}:{port}")
    server.start()
    return server, bound


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve a bare gRPC echo method.")
    parser.add_argument("--port", type=int, default=int(os.environ.get(PORT_ENV, "0")))
    args = parser.parse_args()
    server, port = serve(args.port)
    print(f"echo serving on 127.0.0.1:{port}", file=sys.stderr, flush=True)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    stop.wait()
    server.stop(0.5).wait()


if __name__ == "__main__":
    main()
