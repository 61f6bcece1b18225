// A bot in Node.js for OpenSpiel games (`openspiel:<name>`), from the .proto alone: it plays a
// random legal action id.
//
//   npm install                          # fetches grpc-js and proto-loader, copies the .proto files here
//   node openspiel.js unix:/tmp/bot.sock    # or TCP at SMTOURNEY_PORT without an argument, like bot.js
//
// Every adapted OpenSpiel game is played through one service (smtourney/openspiel/v1/openspiel.proto):
// a SpielActionRequest carries what the seat may know (observation and information-state strings and
// tensors, the history where every step is public) and `legal`, every action allowed now as (id,
// name); the reply names one of those ids and echoes the decision id. The pick is drawn from a hash
// of the decision's public facts (match, seat, decision id), so a bracket replays identically.
"use strict";

const crypto = require("crypto");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

// The games this bot enters (`smtourney games` lists those the referee admits).
const GAMES = ["tic_tac_toe", "connect_four", "kuhn_poker", "leduc_poker", "liars_dice", "goofspiel"];

const PROTOS = path.join(__dirname, "proto");
const LOADING = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true };
const packages = grpc.loadPackageDefinition(
  protoLoader.loadSync(
    ["smtourney/v1/bot.proto", "smtourney/openspiel/v1/openspiel.proto", "health.proto"],
    { ...LOADING, includeDirs: [PROTOS, __dirname] },
  ),
);

// A number in [0, count) drawn from the decision's public facts.
function pick(context, count) {
  const digest = crypto.createHash("sha256").update(`${context.match_id}/${context.seat}/${context.decision_id}`);
  return digest.digest().readUInt32BE(0) % count;
}

const server = new grpc.Server();
server.addService(packages.smtourney.v1.Bot.service, {
  Hello(call, reply) {
    const games = GAMES.map((name) => `openspiel:${name}`);
    reply(null, { name: "node-openspiel", version: "1.0", games, protocol_version: 1 });
  },
  StartMatch(call, reply) {
    reply(null, {});
  },
  EndMatch(call, reply) {
    reply(null, {});
  },
});
server.addService(packages.smtourney.openspiel.v1.OpenSpiel.service, {
  SpielAction(call, reply) {
    const { context, observation } = call.request;
    const legal = observation.legal;
    reply(null, { decision_id: context.decision_id, action: legal[pick(context, legal.length)].id });
  },
});
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
  console.error(`node-openspiel 1.0 serving on ${address}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => server.tryShutdown(() => process.exit(0)));
}
