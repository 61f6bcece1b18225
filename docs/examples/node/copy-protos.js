// Copies the .proto files next to the bot, so that everything the bot reads lies in its own folder:
// a sandboxed bot sees nothing else. The lifecycle service lives in smtourney's proto/, each game's
// decisions in its own folder (sdk/games/<game>/proto/); all the trees merge into one here, so the
// files keep their import paths (smtourney/v1/bot.proto, smtourney/saint_malo/v1/...).
//
// Where smtourney is, first found of:
//   node copy-protos.js /path/to/smtourney     a checkout (or the folder holding proto/ and sdk/)
//   SMTOURNEY_ROOT=/path/to/smtourney          the same, from the environment (as `npm install` runs it)
//   the smtourney that `python3` (or $SMTOURNEY_PYTHON) imports, installed from a checkout
//   the repository this file lies in (docs/examples/node/)
// Run by `npm install` (postinstall).
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

function isRoot(folder) {
  return (
    fs.existsSync(path.join(folder, "proto", "smtourney", "v1", "bot.proto")) &&
    fs.existsSync(path.join(folder, "sdk", "games"))
  );
}

function installedRoot() {
  const python = process.env.SMTOURNEY_PYTHON || "python3";
  try {
    const script = "import pathlib, sdk; print(pathlib.Path(sdk.__file__).resolve().parent.parent)";
    return execFileSync(python, ["-c", script], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

function findRoot() {
  const given = process.argv[2] || process.env.SMTOURNEY_ROOT;
  if (given) {
    if (isRoot(given)) return given;
    throw new Error(`${given} holds no smtourney .proto files (proto/smtourney/v1/bot.proto and sdk/games/)`);
  }
  for (const candidate of [installedRoot(), path.join(__dirname, "..", "..", "..")]) {
    if (candidate && isRoot(candidate)) return candidate;
  }
  throw new Error(
    "smtourney's .proto files were not found: run `node copy-protos.js /path/to/smtourney` " +
      "(a checkout of the repository) or set SMTOURNEY_ROOT"
  );
}

function main() {
  let root;
  try {
    root = findRoot();
  } catch (error) {
    console.error(`copy-protos: ${error.message}`);
    process.exit(1);
  }
  const target = path.join(__dirname, "proto");
  fs.cpSync(path.join(root, "proto"), target, { recursive: true });
  const games = path.join(root, "sdk", "games");
  for (const game of fs.readdirSync(games)) {
    const protos = path.join(games, game, "proto");
    if (fs.existsSync(protos)) fs.cpSync(protos, target, { recursive: true });
  }
  console.log(`copy-protos: the .proto files of ${root} are in ${target}`);
}

main();
