// typescript-eslint, strict and type-checked, over every TypeScript file of tsconfig.json's
// program. `npm run lint` builds that program from parserOptions.project below; `npm test`
// runs test/static-checks.mjs, which builds it once for tsc's type check and hands the same
// program to eslint (parserOptions.programs), so the type check is not paid twice. No --cache:
// eslint's cache is keyed on each file's own text and config, while a type-aware result also
// depends on the files it imports, so a cached "clean" can hide an error another file caused.
// Where this config departs from strictTypeChecked, the reason is beside the rule.
// The JavaScript files (bin/, bench/, examples/, the jest configs and the test scripts and
// support files) are linted with eslint's recommended rules, without types: they are not in
// tsconfig.json's program.
import eslint from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/",
      "runtime/dist/",
      "redis/dist/",
      "node_modules/",
      ".bench-tmp/",
      "coverage/",
      "generated/",
      "test/.tmp-*/",
      "test/fixtures/**/*.golden",
    ],
  },
  {
    files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
    extends: [eslint.configs.recommended],
    languageOptions: { ecmaVersion: 2024, sourceType: "commonjs", globals: globals.node },
  },
  { files: ["**/*.mjs"], languageOptions: { sourceType: "module" } },
  {
    files: ["**/*.ts"],
    extends: [eslint.configs.recommended, tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { project: "./tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A number in a template prints as expected; what the rule is for (objects, undefined,
      // null, never) stays an error. This is the rule's own default outside strictTypeChecked.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // Rejecting with a caught value (typed unknown) passes it on as it is, as `throw error`
      // in a catch does; only-throw-error allows that by default, and so does this rule here.
      // Rejecting with a string or an object literal stays an error.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      // A test that assumes a value is there fails with a TypeError when it is not, as an
      // assertion would; the library code keeps the rule.
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["test/types/*.ts"],
    rules: {
      // Type-level tests: locals exist for their annotations (and `// @ts-expect-error` lines),
      // and `void [a, b]` marks them used; tsc compiles these files, nothing runs them.
      "@typescript-eslint/no-meaningless-void-operator": "off",
    },
  },
);
