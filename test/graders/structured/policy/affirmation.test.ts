import { describe, expect, it } from "vitest";
import { findAffirmative } from "../../../../src/graders/structured/policy/affirmation.ts";

describe("findAffirmative", () => {
  it.each([
    ["Yes, please go ahead.", "yes"],
    ["yeah that's it", "yeah"],
    ["Yep!", "yep"],
    ["I confirm.", "confirm"],
    ["Confirmed.", "confirmed"],
    ["Please proceed with the cancellation.", "proceed"],
    ["Sure", "sure"],
    ["OK", "ok"],
    ["Okay then, do it.", "okay"],
    ["That is correct.", "correct"],
    ["That\u2019s right.", "that's right"],
    ["Sounds good to me", "sounds good"],
    ["ABSOLUTELY", "absolutely"],
    ["Oui, please cancel those two for me.", "oui"],
    ["If it's just me, then the $50 certificate sounds fine.", "sounds fine"],
    ["No problem, go ahead.", "go ahead"],
    ["Yes, but please make sure the refund goes to my card.", "yes"],
    ["I do not need the first one, but yes, cancel the second.", "yes"],
    ["Please use my card ending in 7334. Go ahead and book the flight.", "go ahead"],
  ])("confirms %j (%s)", (text, phrase) => {
    expect(findAffirmative(text)).toBe(phrase);
  });

  it.each([
    "No, please do not proceed.",
    "No. Actually, yes, go ahead.",
    "Nope",
    "Not yet.",
    "Hold on, let me check with my wife first, okay?",
    "That is not correct.",
    "That's incorrect.",
    "I said please do not",
    "Absolutely not.",
    "I don't want to proceed.",
    "Please don't go ahead with it.",
    "I'm not sure.",
    "Please make sure the refund is processed.",
    "Can you confirm the price first?",
    "I'd like the correct address on file.",
    "What are my options?",
    "Yesterday I ordered a lamp.",
    "",
  ])("does not confirm %j", (text) => {
    expect(findAffirmative(text)).toBeNull();
  });
});
