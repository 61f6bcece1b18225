// A Masons bot in Node.js that plays the first legal reply of every request, from the .proto alone.
//
//   npm install                      # fetches grpc-js and proto-loader, copies the .proto files here
//   node masons.js unix:/tmp/bot.sock   # or TCP at SMTOURNEY_PORT without an argument, like bot.js
//
// Every Masons request lists `legal`: each reply the rules allow now, with decision_id 0. A reply
// is one of them with the request's decision_id: the shortest bot that is never refused, and a
// start for one that picks better (each reply's comment in masons.proto says what is legal).
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const PROTOS = path.join(__dirname, "proto");
const LOADING = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };
const packages = grpc.loadPackageDefinition(
  protoLoader.loadSync(
    ["smtourney/v1/bot.proto", "smtourney/masons/v1/masons.proto", "health.proto"],
    { ...LOADING, includeDirs: [PROTOS, __dirname] },
  ),
);
const game = packages.smtourney.masons.v1.Masons.service;

// One handler per decision (the service's methods): the first legal reply, this decision's id.
const decisions = {};
for (const method of Object.keys(game)) {
  decisions[method] = (call, reply) => {
    const { context, legal } = call.request;
    reply(null, { ...legal[0], decision_id: context.decision_id });
  };
}

const server = new grpc.Server();
server.addService(packages.smtourney.v1.Bot.service, {
  Hello(call, reply) {
    reply(null, { name: "node-masons", version: "1.0", games: ["masons"], protocol_version: 1 });
  },
  StartMatch(call, reply) {
    reply(null, {});
  },
  EndMatch(call, reply) {
    reply(null, {});
  },
});
server.addService(game, decisions);
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
  console.error(`node-masons 1.0 serving on ${address}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => server.tryShutdown(() => process.exit(0)));
}
