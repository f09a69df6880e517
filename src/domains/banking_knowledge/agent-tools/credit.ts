/**
 * Part 1 of `KnowledgeTools`' discoverable tools (tau2 tools.py, `example_agent_tool_0000` through
 * `deny_credit_limit_increase_5848`): credit cards, disputes and credit limits, in source order.
 */
import type { DiscoverableTool } from "../discoverable.ts";
import { basicCreditTools } from "./credit-basic.ts";
import { creditCardTools as card } from "./credit-card.ts";
import { creditLimitTools as limit } from "./credit-limit.ts";
import { statementTools as statement } from "./credit-statement.ts";
import { debitDisputeTools } from "./dispute-debit.ts";
import { disputeFilingTools } from "./dispute-file.ts";

export const creditDiscoverableTools: DiscoverableTool[] = [
  ...basicCreditTools,
  ...disputeFilingTools,
  ...debitDisputeTools,
  card.orderReplacementCard,
  card.userDisputeHistory,
  card.pendingReplacementOrders,
  card.logClosureReason,
  card.closureReasonHistory,
  statement.applyStatementCredit,
  statement.applyAccountFlag,
  card.closeCreditCardAccount,
  statement.payFromChecking,
  limit.submitIncreaseRequest,
  limit.increaseHistory,
  limit.paymentHistory,
  limit.approveIncrease,
  limit.denyIncrease,
];
