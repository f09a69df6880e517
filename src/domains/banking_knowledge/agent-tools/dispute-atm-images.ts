/**
 * The envelope scans tau2 hard-codes for three Rho-Bank ATM deposits (`get_atm_deposit_images_8473`):
 * output data, reproduced verbatim.
 */
export const ATM_DEPOSIT_IMAGES = {
  btxn_834027370c20: {
    atmId: "ATM #3921",
    envelopeContents: `
=== ATM DEPOSIT ENVELOPE SCAN ===
Envelope ID: ENV-2025-3921-00923
Deposit Time: 3:47 PM CST
ATM Location: Rho-Bank ATM #3921, Cedar Lane Branch, Austin, TX

--- ENVELOPE CONTENTS ---
Item 1: Personal Check
  - Check Number: 7284
  - Drawn On: First Texas Bank
  - Payee: Derek Yamamoto
  - Amount: $875.00
  - Memo: "October rent refund"
  - Signature: Present and legible
  - Date on Check: 11/03/2025

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
Check back (endorsement): CLEAR - endorsed "For Deposit Only - Derek Yamamoto"
Cash image: CLEAR - bills visible and countable
`,
    verificationNotes:
      "Images clearly show deposit contents totaling $1,135.00. ATM machine recorded only $385.00. Discrepancy of $750.00 confirmed via image review.",
  },
  btxn_test_deposit_001: {
    atmId: "ATM #3921",
    envelopeContents: `
=== ATM DEPOSIT ENVELOPE SCAN ===
Envelope ID: ENV-2025-3921-00847
Deposit Time: 2:34 PM EST
ATM Location: Rho-Bank ATM #3921, 742 Oak Avenue, Portland, OR

--- ENVELOPE CONTENTS ---
Item 1: Personal Check
  - Check Number: 4821
  - Drawn On: First National Bank
  - Payee: Linda Patterson
  - Amount: $875.00
  - Memo: "October rent refund"
  - Signature: Present and legible
  - Date on Check: 11/05/2025

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
Check back (endorsement): CLEAR - endorsed "For Deposit Only - Linda Patterson"
Cash image: CLEAR - bills visible and countable
`,
    verificationNotes:
      "Images clearly show deposit contents totaling $1,135.00. ATM machine recorded only $385.00. Discrepancy of $750.00 confirmed via image review.",
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
