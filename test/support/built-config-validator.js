// generator/config/load-config.ts's `./config-validator.generated.js` in the suites: the build's (see require-built.js).
module.exports = require("./require-built.js")("generator/config/config-validator.generated.js");
