// A complete Saint Malo bot in Node.js, written from the .proto files alone (grpc-js, proto-loader).
//
//   npm install                      # fetches grpc-js and proto-loader, copies ../../../proto here
//   node bot.js                      # listens on TCP at the port in SMTOURNEY_PORT (the referee sets it)
//   node bot.js unix:/tmp/bot.sock   # or where its first argument says ({address} in a bracket's
//                                    # command: the Unix socket the referee connects to)
//
// It plays simple legal moves read from the observation's bit masks. Masks and decision ids are
// uint64: they arrive as strings (the `longs: String` option) and are handled as BigInt, since a
// JavaScript number holds integers exactly only up to 2^53 and its bit operators work on 32 bits.
"use strict";

const { load, serve } = require("./serve");

const packages = load("smtourney/saint_malo/v1/saint_malo.proto");

// Squares are row * 7 + col on a 7x7 grid; the four corners are towers, never spaces.
const CORNERS = [0n, 6n, 42n, 48n];
const ALL = (1n << 49n) - 1n;
const SPACES = CORNERS.reduce((mask, corner) => mask & ~(1n << corner), ALL);
let INNER = 0n;
for (let row = 1n; row <= 5n; row++) for (let col = 1n; col <= 5n; col++) INNER |= 1n << (row * 7n + col);
const OUTER = SPACES & ~INNER;

const lowestBit = (mask) => mask & -mask;
const indexOf = (bit) => bit.toString(2).length - 1; // index of a single-bit mask

function emptySpaces(observation) {
  const city = observation.cities[observation.current];
  let filled = BigInt(city.walls) | BigInt(city.crates) | BigInt(city.houses);
  for (const mask of [...city.churches, ...city.persons]) filled |= BigInt(mask);
  return SPACES & ~filled;
}

const bitCount = (n) => n.toString(2).split("1").length - 1;

// Each handler answers one decision; every reply echoes the request's decision_id.
const decisions = {
  Keep(call, reply) {
    const { context, observation } = call.request;
    let reroll = 0; // dice masks are uint32: plain numbers are fine
    observation.dice.forEach((symbol, die) => {
      if (symbol === "SYMBOL_SWORDS") reroll |= 1 << die;
    });
    reply(null, { decision_id: context.decision_id, reroll });
  },
  Choose(call, reply) {
    const { context, available } = call.request;
    reply(null, { decision_id: context.decision_id, symbol: available[0] });
  },
  Rotate(call, reply) {
    const { context, legal } = call.request;
    const dice = legal.reduce((best, mask) => (bitCount(mask) < bitCount(best) ? mask : best));
    reply(null, { decision_id: context.decision_id, dice });
  },
  Place(call, reply) {
    const { context, observation } = call.request;
    const empty = emptySpaces(observation);
    const answer = { decision_id: context.decision_id };
    switch (observation.chosen) {
      case "SYMBOL_LOG":
        answer.logs = { count: 1 };
        break;
      case "SYMBOL_CRATE":
        answer.crates = { spaces: lowestBit(empty).toString() }; // uint64: sent as a string
        break;
      case "SYMBOL_WALL":
        answer.walls = { spaces: lowestBit(empty & OUTER).toString() };
        break;
      case "SYMBOL_CROSS":
        answer.church = { space: indexOf(lowestBit(empty)), size: 1 };
        break;
      default: // a head: the cheapest person
        answer.person = { person: "PERSON_CITIZEN", space: indexOf(lowestBit(empty)) };
    }
    reply(null, answer);
  },
  PlaceBonusPerson(call, reply) {
    const { context, observation } = call.request;
    const space = indexOf(lowestBit(emptySpaces(observation)));
    reply(null, { decision_id: context.decision_id, person: { person: "PERSON_SOLDIER", space } });
  },
};

serve(
  packages,
  { name: "node-example", version: "1.0", games: ["saint_malo"] },
  packages.smtourney.saint_malo.v1.SaintMalo.service,
  decisions,
);
