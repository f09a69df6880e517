/**
 * Lexical detection of an explicit user confirmation ("yes, go ahead"). Deliberately simple and
 * inspectable: a fixed phrase list, whole-word matching on lower-cased tokens, clause-local
 * negation. It cannot read intent ("I do not, however, want to proceed" splits into a clause that
 * confirms), which is why the rule that uses it lists that limit.
 */
import type { Message } from "../../../formats/model.ts";
import { pyLower } from "../../../py/text.ts";

/**
 * Phrases that count as an explicit affirmative, as whole-token sequences. Plain "right", "fine"
 * and "great" are left out: they are too often descriptive ("the right flight", "I'm fine").
 */
export const AFFIRMATIVE_PHRASES: readonly string[] = [
  "yes",
  "yeah",
  "yep",
  "yup",
  "sure",
  "ok",
  "okay",
  "alright",
  "all right",
  "confirm",
  "confirmed",
  "go ahead",
  "proceed",
  "please do",
  "do it",
  "go for it",
  "correct",
  "that's right",
  "thats right",
  "that is right",
  "that's fine",
  "that is fine",
  "that works",
  "sounds good",
  "sounds great",
  "sounds fine",
  "sounds perfect",
  "looks good",
  "absolutely",
  "definitely",
  "certainly",
  "of course",
  "agreed",
  "i agree",
  "affirmative",
  // Simulated users with a French persona answer "Oui, please cancel them".
  "oui",
];

/** Openings that make the whole message a refusal, whatever follows ("No, please do not proceed"). */
const REFUSAL_OPENING =
  /^(?:no|nope|nah|never|don't|dont|do not|please don't|please do not|not yet|hold on|stop)\b/;

/** Idioms that contain a negation word but are not negations; removed before anything else. */
const NON_NEGATING_IDIOMS = /\b(?:no problem|no worries|no doubt|not a problem)\b/g;

/** Clause boundaries: sentence and list punctuation, dashes, and contrastive conjunctions. */
const CLAUSE_BREAK = /[.!?;:,\n()\u2013\u2014]+|\s-\s|\b(?:but|however|although|though)\b/;

/** How many tokens before an affirmative a negation still cancels it ("that is not correct"). */
const NEGATION_WINDOW = 3;

/** Context words right before an ambiguous affirmative that make it descriptive, not a reply. */
const DESCRIPTIVE_BEFORE: Readonly<Record<string, ReadonlySet<string>>> = {
  sure: new Set(["make", "makes", "making", "be", "for", "unsure"]),
  correct: new Set(["the", "a", "an", "to"]),
};

const isNegation = (token: string): boolean =>
  [
    "not",
    "no",
    "never",
    "nor",
    "neither",
    "cannot",
    "dont",
    "doesnt",
    "didnt",
    "isnt",
    "wont",
    "cant",
  ].includes(token) || token.endsWith("n't");

const normalize = (text: string): string =>
  pyLower(text)
    .replace(/[\u2018\u2019\u02bc`]/g, "'")
    .replace(NON_NEGATING_IDIOMS, " ");

const tokens = (clause: string): string[] =>
  (clause.match(/[a-z0-9']+/g) ?? []).map((t) => t.replace(/^'+|'+$/g, "")).filter((t) => t !== "");

/** The phrases as token lists, by first token (in list order), so each word is tried only against its own. */
const PHRASES_BY_FIRST = new Map<string, (readonly string[])[]>();
for (const phrase of AFFIRMATIVE_PHRASES) {
  const words = phrase.split(" ");
  const first = words[0] as string;
  PHRASES_BY_FIRST.set(first, [...(PHRASES_BY_FIRST.get(first) ?? []), words]);
}

function phraseAt(words: readonly string[], at: number, phrase: readonly string[]): boolean {
  return phrase.every((w, k) => words[at + k] === w);
}

/** Whether the phrase found at `at` is a live affirmative in its clause (no nearby negation). */
function isLive(words: readonly string[], at: number, phrase: readonly string[]): boolean {
  const before = words.slice(Math.max(0, at - NEGATION_WINDOW), at);
  if (before.some(isNegation)) return false;
  const after = words[at + phrase.length];
  if (after !== undefined && isNegation(after)) return false;
  const descriptive = phrase.length === 1 ? DESCRIPTIVE_BEFORE[phrase[0] as string] : undefined;
  const previous = words[at - 1];
  if (descriptive !== undefined && previous !== undefined && descriptive.has(previous)) return false;
  // "can you confirm ..." asks the agent to confirm something; it is not the user confirming.
  if (phrase.length === 1 && phrase[0] === "confirm" && before.includes("you")) return false;
  return true;
}

/**
 * The first live affirmative phrase in the text, or null when the text gives no explicit,
 * non-negated confirmation (including any message that opens with a refusal).
 */
export function findAffirmative(text: string): string | null {
  const norm = normalize(text);
  if (REFUSAL_OPENING.test(norm.replace(/^[^a-z0-9']+/, ""))) return null;
  for (const clause of norm.split(CLAUSE_BREAK)) {
    const words = tokens(clause);
    for (let at = 0; at < words.length; at++) {
      for (const phrase of PHRASES_BY_FIRST.get(words[at] as string) ?? []) {
        if (phraseAt(words, at, phrase) && isLive(words, at, phrase)) return phrase.join(" ");
      }
    }
  }
  return null;
}

export const confirms = (text: string): boolean => findAffirmative(text) !== null;

const answers = new WeakMap<readonly Message[], Map<number, string | null>>();

/**
 * `findAffirmative` of the text of message `index` (given as `text`), worked out once per message list:
 * several rules ask whether the same user message says yes.
 */
export function affirmativeAt(messages: readonly Message[], index: number, text: string): string | null {
  let byIndex = answers.get(messages);
  if (byIndex === undefined) {
    byIndex = new Map();
    answers.set(messages, byIndex);
  }
  let hit = byIndex.get(index);
  if (hit === undefined) {
    hit = findAffirmative(text);
    byIndex.set(index, hit);
  }
  return hit;
}
