// A Masons bot in Node.js that plays the first legal reply of every request, from the .proto alone.
//
//   npm install                      # fetches grpc-js and proto-loader, copies the .proto files here
//   node masons.js unix:/tmp/bot.sock   # or TCP at SMTOURNEY_PORT without an argument, like bot.js
//
// Every Masons request lists `legal`: each reply the rules allow now, with decision_id 0. A reply
// is one of them with the request's decision_id: the shortest bot that is never refused, and a
// start for one that picks better (each reply's comment in masons.proto says what is legal).
"use strict";

const { load, serve } = require("./serve");

const packages = load("smtourney/masons/v1/masons.proto");
const game = packages.smtourney.masons.v1.Masons.service;

// One handler per decision (the service's methods): the first legal reply, this decision's id.
const decisions = {};
for (const method of Object.keys(game)) {
  decisions[method] = (call, reply) => {
    const { context, legal } = call.request;
    reply(null, { ...legal[0], decision_id: context.decision_id });
  };
}

serve(packages, { name: "node-masons", version: "1.0", games: ["masons"] }, game, decisions);
