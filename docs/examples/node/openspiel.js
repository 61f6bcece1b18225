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
const { load, serve } = require("./serve");

// The games this bot enters (`smtourney games` lists those the referee admits).
const GAMES = ["tic_tac_toe", "connect_four", "kuhn_poker", "leduc_poker", "liars_dice", "goofspiel"];

const packages = load("smtourney/openspiel/v1/openspiel.proto");

// A number in [0, count) drawn from the decision's public facts.
function pick(context, count) {
  const digest = crypto.createHash("sha256").update(`${context.match_id}/${context.seat}/${context.decision_id}`);
  return digest.digest().readUInt32BE(0) % count;
}

serve(
  packages,
  { name: "node-openspiel", version: "1.0", games: GAMES.map((name) => `openspiel:${name}`) },
  packages.smtourney.openspiel.v1.OpenSpiel.service,
  {
    SpielAction(call, reply) {
      const { context, observation } = call.request;
      const legal = observation.legal;
      reply(null, { decision_id: context.decision_id, action: legal[pick(context, legal.length)].id });
    },
  },
);
