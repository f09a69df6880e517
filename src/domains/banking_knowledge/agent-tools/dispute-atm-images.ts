/**
 * The envelope scans tau2 hard-codes for three Rho-Bank ATM deposits (`get_atm_deposit_images_8473`):
 * output data, reproduced verbatim.
 */

interface ScanOf1135 {
  readonly envelopeId: string;
  readonly depositTime: string;
  readonly location: string;
  readonly checkNumber: string;
  readonly drawnOn: string;
  readonly payee: string;
  readonly checkDate: string;
}

/** The two scans of a $1,135.00 deposit the ATM recorded as $385.00 differ only in these fields. */
const scanOf1135 = (s: ScanOf1135): string => `
=== ATM DEPOSIT ENVELOPE SCAN ===
Envelope ID: ${s.envelopeId}
Deposit Time: ${s.depositTime}
ATM Location: ${s.location}

--- ENVELOPE CONTENTS ---
Item 1: Personal Check
  - Check Number: ${s.checkNumber}
  - Drawn On: ${s.drawnOn}
  - Payee: ${s.payee}
  - Amount: $875.00
  - Memo: "October rent refund"
  - Signature: Present and legible
  - Date on Check: ${s.checkDate}

Item 2: Cash
  - Denomination breakdown:
    * 2 x $100 bills = $200.00
    * 3 x $20 bills = $60.00
  - Total Cash: $260.00

--- DEPOSIT SUMMARY ---
Check Total: $875.00
Cash Total: $260.00
GRAND TOTAL: $1,135.00

--- MACHINE RECORD ---
Amount Recorded by ATM: $385.00
DISCREPANCY DETECTED: $750.00 difference

--- IMAGE QUALITY ---
Envelope scan: CLEAR
Check front: CLEAR
Check back (endorsement): CLEAR - endorsed "For Deposit Only - ${s.payee}"
Cash image: CLEAR - bills visible and countable
`;

const DISCREPANCY_CONFIRMED =
  "Images clearly show deposit contents totaling $1,135.00. ATM machine recorded only $385.00. Discrepancy of $750.00 confirmed via image review.";

export const ATM_DEPOSIT_IMAGES = {
  btxn_834027370c20: {
    atmId: "ATM #3921",
    envelopeContents: scanOf1135({
      envelopeId: "ENV-2025-3921-00923",
      depositTime: "3:47 PM CST",
      location: "Rho-Bank ATM #3921, Cedar Lane Branch, Austin, TX",
      checkNumber: "7284",
      drawnOn: "First Texas Bank",
      payee: "Derek Yamamoto",
      checkDate: "11/03/2025",
    }),
    verificationNotes: DISCREPANCY_CONFIRMED,
  },
  btxn_test_deposit_001: {
    atmId: "ATM #3921",
    envelopeContents: scanOf1135({
      envelopeId: "ENV-2025-3921-00847",
      depositTime: "2:34 PM EST",
      location: "Rho-Bank ATM #3921, 742 Oak Avenue, Portland, OR",
      checkNumber: "4821",
      drawnOn: "First National Bank",
      payee: "Linda Patterson",
      checkDate: "11/05/2025",
    }),
    verificationNotes: DISCREPANCY_CONFIRMED,
  },
  btxn_test_atm_dep_partial: {
    atmId: "ATM #5847",
    envelopeContents: `
=== ATM DEPOSIT ENVELOPE SCAN ===
Envelope ID: ENV-2025-5847-00293
Deposit Time: 10:15 AM EST

--- ENVELOPE CONTENTS ---
Item 1: Personal Check
  - Check Number: 7392
  - Amount: $500.00

--- DEPOSIT SUMMARY ---
Check Total: $500.00
Cash Total: $0.00
GRAND TOTAL: $500.00

--- MACHINE RECORD ---
Amount Recorded by ATM: $500.00
No discrepancy detected.
`,
    verificationNotes: "Images confirm deposit matches recorded amount. No discrepancy found.",
  },
} as const;
