/**
 * `str(ValidationError)` in pydantic v2's layout, which tau2 puts in the tool result when a model
 * it constructs rejects an argument (`Error: <str(exc)>`).
 */
import { pyRepr } from "./builtins.ts";
import { type PyValue, pyTypeName } from "./value.ts";

/**
 * The version in the docs links of error texts. Recorded outputs vary (2.11, 2.12) and the oracle
 * ran 2.13; 2.11 is what most corpus files recorded. Only strict replay notices.
 */
export const PYDANTIC_DOCS_VERSION = "2.11";

/** One line item of a ValidationError. `input` undefined stands for a missing value (None). */
export interface PydanticIssue {
  readonly loc: readonly (string | number)[];
  readonly type: string;
  readonly msg: string;
  readonly input: PyValue | undefined;
}

const utf8 = new TextEncoder();
const decoder = new TextDecoder();
const isContinuationByte = (b: number): boolean => (b & 0xc0) === 0x80;

/**
 * pydantic-core shortens an input repr longer than 50 UTF-8 bytes to its first 25 bytes, `...`,
 * and its last 24, each cut moved off a character's middle (the head shrinks, the tail starts later).
 */
export function truncatedInputRepr(repr: string): string {
  const bytes = utf8.encode(repr);
  if (bytes.length <= 50) return repr;
  let head = 25;
  while (isContinuationByte(bytes[head] as number)) head--;
  let tail = bytes.length - 24;
  while (tail < bytes.length && isContinuationByte(bytes[tail] as number)) tail++;
  return `${decoder.decode(bytes.subarray(0, head))}...${decoder.decode(bytes.subarray(tail))}`;
}

/** `str(ValidationError)` for a model named `title`. */
export function validationErrorText(title: string, issues: readonly PydanticIssue[]): string {
  const n = issues.length;
  const lines = [`${n} validation error${n === 1 ? "" : "s"} for ${title}`];
  for (const i of issues) {
    const input = truncatedInputRepr(pyRepr(i.input));
    lines.push(i.loc.join("."));
    lines.push(`  ${i.msg} [type=${i.type}, input_value=${input}, input_type=${pyTypeName(i.input)}]`);
    lines.push(
      `    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/${i.type}`,
    );
  }
  return lines.join("\n");
}
