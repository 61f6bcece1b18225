// What every example bot shares: loading the .proto files and serving a game's service beside the
// lifecycle (Hello, StartMatch, EndMatch) and gRPC health, where the referee says to listen.
//
//   const { load, serve } = require("./serve");
//   const packages = load("smtourney/masons/v1/masons.proto");
//   serve(packages, { name: "node-masons", version: "1.0", games: ["masons"] },
//         packages.smtourney.masons.v1.Masons.service, handlers);
//
// It listens on its first argument (`{address}` in a bracket's command: the Unix socket the
// referee connects to) or on TCP at SMTOURNEY_PORT, and stops cleanly on SIGTERM and SIGINT.
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

// 64-bit integers arrive as strings (a JavaScript number is exact only up to 2^53); enums as names.
const LOADING = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };

// The lifecycle, the game's and the health packages, from the .proto files copied beside this one.
function load(gameProto) {
  return grpc.loadPackageDefinition(
    protoLoader.loadSync(["smtourney/v1/bot.proto", gameProto, "health.proto"], {
      ...LOADING,
      includeDirs: [path.join(__dirname, "proto"), __dirname],
    }),
  );
}

function serve(packages, hello, game, handlers) {
  const server = new grpc.Server();
  server.addService(packages.smtourney.v1.Bot.service, {
    Hello(call, reply) {
      reply(null, { ...hello, protocol_version: 1 });
    },
    StartMatch(call, reply) {
      reply(null, {});
    },
    EndMatch(call, reply) {
      reply(null, {});
    },
  });
  server.addService(game, handlers);
  server.addService(packages.grpc.health.v1.Health.service, {
    Check(call, reply) {
      reply(null, { status: "SERVING" });
    },
  });
  const address = process.argv[2] || `0.0.0.0:${process.env.SMTOURNEY_PORT || 50051}`;
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => {
    if (error) {
      console.error(`cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
    console.error(`${hello.name} ${hello.version} serving on ${address}`);
  });
  for (const signal of ["SIGTERM", "SIGINT"]) {
    process.on(signal, () => server.tryShutdown(() => process.exit(0)));
  }
}

module.exports = { load, serve };
