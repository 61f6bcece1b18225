// Copies the repository's proto/ folder next to the bot, so that everything the bot reads lies in
// its own folder: a sandboxed bot sees nothing else. Run by `npm install` (postinstall).
const fs = require("fs");
const path = require("path");

const source = path.join(__dirname, "..", "..", "..", "proto");
fs.cpSync(source, path.join(__dirname, "proto"), { recursive: true });
