// The jest worker's prettier/plugins/estree (test/support/worker-prettier.js).
module.exports = require("../../worker-prettier.js")("prettier/plugins/estree");
