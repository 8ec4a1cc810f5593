// The jest worker's prettier/plugins/babel (test/support/worker-prettier.js).
module.exports = require("../../worker-prettier.js")("prettier/plugins/babel");
