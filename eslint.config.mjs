// typescript-eslint, strict and type-checked, over every TypeScript file tsc checks.
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "runtime/dist/", "node_modules/", ".bench-tmp/", "coverage/", "generated/", "test/fixtures/**/*.golden", "**/*.js", "**/*.mjs"] },
  eslint.configs.recommended,
  tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
);
