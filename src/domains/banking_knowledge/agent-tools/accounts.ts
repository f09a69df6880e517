/**
 * tau2's bank-account and debit-card discoverable agent tools (`KnowledgeTools`, tools.py from
 * `open_bank_account_4821` to `request_temporary_debit_card_limit_increase_8374`), in source order.
 */
import type { DiscoverableTool } from "../discoverable.ts";
import {
  applyCheckingAccountCredit,
  applySavingsAccountCredit,
  submitInterestDiscrepancyReport,
  transferFundsBetweenBankAccounts,
} from "./account-funds.ts";
import { closeBankAccount, openBankAccount } from "./account-lifecycle.ts";
import { getAllUserAccountsByUserId, getBankAccountTransactions } from "./account-reads.ts";
import {
  activateNewDebitCard,
  activateReissuedDebitCard,
  activateReplacementDebitCard,
} from "./debit-activate.ts";
import { requestTemporaryDebitCardLimitIncrease } from "./debit-limits.ts";
import { orderDebitCard } from "./debit-order.ts";
import { changeDebitCardPin, resetDebitCardPin } from "./debit-pin.ts";
import { getDebitCardsByAccountId } from "./debit-reads.ts";
import {
  clearDebitCardFraudAlert,
  closeDebitCard,
  freezeDebitCard,
  unfreezeDebitCard,
} from "./debit-status.ts";

export { validatePin } from "./debit-pin.ts";

export const accountDiscoverableTools: DiscoverableTool[] = [
  openBankAccount,
  closeBankAccount,
  getAllUserAccountsByUserId,
  transferFundsBetweenBankAccounts,
  applyCheckingAccountCredit,
  applySavingsAccountCredit,
  submitInterestDiscrepancyReport,
  getBankAccountTransactions,
  orderDebitCard,
  activateNewDebitCard,
  activateReplacementDebitCard,
  activateReissuedDebitCard,
  closeDebitCard,
  freezeDebitCard,
  unfreezeDebitCard,
  clearDebitCardFraudAlert,
  resetDebitCardPin,
  changeDebitCardPin,
  getDebitCardsByAccountId,
  requestTemporaryDebitCardLimitIncrease,
];
