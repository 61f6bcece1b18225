// Copies the .proto files next to the bot, so that everything the bot reads lies in its own folder:
// a sandboxed bot sees nothing else. The lifecycle service lives in the repository's proto/, each
// game's decisions in its own folder (sdk/games/<game>/proto/); all the trees merge into one here, so
// the files keep their import paths (smtourney/v1/bot.proto, smtourney/saint_malo/v1/...).
// Run by `npm install` (postinstall).
const fs = require("fs");
const path = require("path");

const root = path.join(__dirname, "..", "..", "..");
const target = path.join(__dirname, "proto");
fs.cpSync(path.join(root, "proto"), target, { recursive: true });
const games = path.join(root, "sdk", "games");
for (const game of fs.readdirSync(games)) {
  const protos = path.join(games, game, "proto");
  if (fs.existsSync(protos)) fs.cpSync(protos, target, { recursive: true });
}
