// generator/read/openapi-validation.ts's `./openapi-validator.generated.js` in the suites: the build's (see require-built.js).
module.exports = require("./require-built.js")("generator/read/openapi-validator.generated.js");
