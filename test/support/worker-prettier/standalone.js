// The jest worker's prettier/standalone (test/support/worker-prettier.js).
module.exports = require("../worker-prettier.js")("prettier/standalone");
