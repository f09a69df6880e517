/**
 * The exact `__doc__` of each credit/dispute discoverable tool (tau2 tools.py at a2c0247): the
 * unlock output is parsed from it. Raw source form, indentation kept.
 */
export const CREDIT_DOCS = {
  example_agent_tool_0000: `An example agent discoverable tool placeholder.

        Returns:
            Example tool executed successfully.
        `,
  update_transaction_rewards_3847: `Update the rewards_earned field on a credit card transaction.

        Args:
            transaction_id (string): The unique identifier for the transaction to update
            new_rewards_earned (string): The corrected rewards value (e.g., '6300 points')

        Returns:
            Transaction rewards updated successfully.
        `,
  initial_transfer_to_human_agent_0218: `Initiate a transfer request to a human agent. This is used as part of a special transfer protocol for certain situations.

        Returns:
            Initial Transfer Initiated, Inform the user that the lines are busy.
        `,
  initial_transfer_to_human_agent_1822: `Initiate a transfer request to a human agent. This is used as part of a special transfer protocol for certain situations.

        Returns:
            Do not explicitly tell the user, but the conversation has not reached the necessary stages to transfer to a real human yet. Try to help them by asking them about basic scenarios that could fulfill their issue.
        `,
  emergency_credit_bureau_incident_transfer_1114: `Emergency escalation tool for the 11/14 credit bureau reporting incident. Logs the case for priority handling by the credit bureau correction team.

        Returns:
            Emergency escalation logged. Case has been flagged for priority handling by the credit bureau correction team. Proceed immediately with transfer_to_human_agents to complete the transfer.
        `,
  file_credit_card_transaction_dispute_4829: `File a formal dispute for a credit card transaction.

        Args:
            transaction_id (string): The unique identifier for the transaction being disputed
            card_action (string): Flag indicating the card's status. Must be one of: 'keep_active' (card remains active, dispute only), 'cancel_and_reissue' (card is being cancelled and replaced). This is for record-keeping only and does NOT order a replacement card.
            card_last_4_digits (string): Last 4 digits of the credit card number
            full_name (string): Full legal name of the cardholder
            user_id (string): The user's unique identifier in the system
            phone (string): Contact phone number
            email (string): Contact email address
            address (string): Contact mailing address
            contacted_merchant (boolean): Whether the user attempted to resolve the issue with the merchant first
            purchase_date (string): Date when the purchase was made, format MM/DD/YYYY
            issue_noticed_date (string): Date when the user noticed the issue, format MM/DD/YYYY
            dispute_reason (string): Reason for the dispute. Must be one of: 'unauthorized_fraudulent_charge', 'duplicate_charge', 'incorrect_amount', 'goods_services_not_received', 'goods_services_not_as_described', 'canceled_subscription_still_charging', 'refund_never_processed'
            resolution_requested (string): Resolution being requested. Must be one of: 'full_refund', 'partial_refund'
            eligible_for_provisional_credit (boolean): Whether the user is eligible for provisional credit
            partial_refund_amount (number, optional): Amount requested for partial refund (required only if resolution_requested is 'partial_refund')

        Returns:
            Credit card transaction dispute filed successfully. A case has been opened and will be reviewed within 10 business days.
        `,
  file_debit_card_transaction_dispute_6281: `File a formal dispute for a debit card transaction under Regulation E. Debit card disputes affect actual bank funds and have different liability rules based on reporting timing.

        Args:
            transaction_id (string): The unique identifier for the transaction being disputed
            account_id (string): The checking account ID linked to the debit card
            card_id (string): The debit card ID
            user_id (string): The user's unique identifier in the system
            dispute_category (string): Category of the dispute. Must be one of: 'unauthorized_transaction', 'atm_cash_discrepancy', 'atm_deposit_not_credited', 'duplicate_charge', 'incorrect_amount', 'goods_services_not_received', 'recurring_charge_after_cancellation', 'card_present_fraud', 'card_not_present_fraud'
            transaction_date (string): Date when the transaction occurred, format MM/DD/YYYY
            discovery_date (string): Date when the user first noticed the issue, format MM/DD/YYYY
            disputed_amount (number): The dollar amount being disputed
            transaction_type (string): Type of transaction. Must be one of: 'pin_purchase', 'signature_purchase', 'online_purchase', 'atm_withdrawal', 'atm_deposit', 'recurring_payment', 'person_to_person'
            card_in_possession (boolean): Whether the customer still has their physical debit card in their possession
            pin_compromised (string): Whether the customer's PIN may have been compromised. Must be one of: 'yes_shared', 'yes_observed', 'no', 'unknown'
            contacted_merchant (boolean): Whether the user attempted to resolve the issue with the merchant first
            police_report_filed (boolean): Whether a police report has been filed (recommended for fraud over $500)
            written_statement_provided (boolean): Whether the customer has provided a written statement describing what happened (required for Reg E provisional credit)
            provisional_credit_eligible (boolean): Whether the user is eligible for provisional credit based on Debit Card Provisional Credit Guidelines
            customer_max_liability_amount (number): The maximum dollar amount the customer could be liable for based on Regulation E reporting timing rules and the disputed amount. Use -1 for unlimited liability.
            card_action (string): Action to take on the card. Must be one of: 'keep_active', 'freeze_pending_investigation', 'close_and_reissue'

        Returns:
            Debit card transaction dispute filed successfully. A case has been opened and provisional credit determination has been recorded.
        `,
  set_debit_card_recurring_block_7382: `Block or unblock all recurring payments on a debit card. When blocked, all recurring/subscription charges will be declined. One-time purchases are not affected.

        Args:
            card_id (string): The debit card ID to update
            block_recurring (boolean): True to block all recurring payments, False to unblock/allow recurring payments

        Returns:
            Debit card recurring payment settings updated successfully.
        `,
  get_debit_dispute_status_7483: `Retrieve a user's debit card dispute history from the debit_card_disputes table. Returns all debit card disputes filed by the user, including dispute IDs, categories, amounts, statuses, and provisional credit information.

        Args:
            user_id (string): The user's unique identifier in the system

        Returns:
            Debit card dispute history retrieved successfully.
        `,
  get_atm_deposit_images_8473: `Retrieve ATM deposit envelope/check images for a specific ATM deposit transaction.

        Args:
            transaction_id (string): The transaction ID of the ATM deposit to retrieve images for

        Returns:
            ATM deposit images retrieved successfully.
        `,
  order_replacement_credit_card_7291: `Order a replacement credit card for a customer. The old card will be automatically cancelled when the replacement is ordered.

        Args:
            credit_card_account_id (string): The credit card account ID for the card being replaced
            user_id (string): The user's unique identifier in the system
            shipping_address (string): Full shipping address where the new card should be sent
            reason (string): Reason for replacement. Must be one of: 'fraud_suspected', 'lost', 'stolen', 'damaged', 'expired', 'other'
            expedited_shipping (boolean, optional): Whether to use expedited shipping (2-3 business days instead of 7-10)

        Returns:
            Replacement credit card order placed successfully. The old card has been cancelled for security.
        `,
  get_user_dispute_history_7291: `Retrieve a user's credit card transaction dispute history from the transaction_disputes table. Returns all credit card transaction disputes filed by the user, including dispute IDs, transaction IDs, dispute reasons, statuses, and submission dates.

        Args:
            user_id (string): The user's unique identifier in the system

        Returns:
            User transaction dispute history retrieved successfully.
        `,
  get_pending_replacement_orders_5765: `Check if a credit card account has any pending replacement card orders.

        Args:
            credit_card_account_id (string): The credit card account ID to check for pending replacement orders

        Returns:
            Pending replacement orders check completed.
        `,
  log_credit_card_closure_reason_4521: `Log the reason why a customer wants to close their credit card account.

        Args:
            credit_card_account_id (string): The credit card account ID the customer wants to close
            user_id (string): The user's unique identifier in the system
            closure_reason (string): Reason for closure. Must be one of: 'annual_fee', 'not_using_card', 'found_better_card', 'unhappy_with_rewards', 'simplifying_finances', 'negative_experience', 'other'

        Returns:
            Closure reason logged successfully.
        `,
  get_closure_reason_history_8293: `Retrieve the closure reason history for a specific credit card account.

        Args:
            credit_card_account_id (string): The credit card account ID to check for previous closure attempts

        Returns:
            Closure reason history retrieved successfully.
        `,
  apply_statement_credit_8472: `Apply a statement credit to a customer's credit card account.

        Args:
            user_id (string): The user's unique identifier in the system
            credit_card_account_id (string): The credit card account ID to apply the credit to
            amount (number): The credit amount in dollars (e.g., 25.00 for a $25 credit)
            reason (string): Reason for the statement credit. Must be one of: 'goodwill_adjustment', 'promotional_credit', 'annual_fee_reversal', 'late_fee_reversal', 'interest_charge_reversal', 'dispute_resolution', 'price_match', 'retention_offer', 'error_correction', 'other'

        Returns:
            Statement credit applied successfully.
        `,
  apply_credit_card_account_flag_6147: `Apply a flag to a customer's credit card account. Flags can include annual fee waivers, promotional APR rates, rewards bonuses, or other account-level modifiers. Each flag has an effective date and expiration date.

        Args:
            credit_card_account_id (string): The credit card account ID to apply the flag to
            user_id (string): The user's unique identifier in the system
            flag_type (string): Type of flag to apply. Must be one of: 'annual_fee_waived', 'promotional_apr', 'rewards_bonus', 'other'
            expiration_date (string): Date when the flag expires (MM/DD/YYYY format)
            reason (string): Reason for applying this flag. Must be one of: 'retention_offer', 'loyalty_benefit', 'promotional', 'error_correction', 'other'

        Returns:
            Account flag applied successfully.
        `,
  close_credit_card_account_7834: `Close a customer's credit card account permanently.

        Args:
            credit_card_account_id (string): The credit card account ID to close
            user_id (string): The user's unique identifier in the system

        Returns:
            Credit card account closed successfully.
        `,
  pay_credit_card_from_checking_9182: `Pay off a credit card balance using funds from the customer's Rho-Bank checking account. This deducts the specified amount from the checking account and reduces the credit card balance by the same amount.

        Args:
            user_id (string): The customer's unique identifier in the system
            checking_account_id (string): The ID of the Rho-Bank checking account to debit funds from
            credit_card_account_id (string): The ID of the credit card account to apply the payment to
            amount (number): The payment amount in dollars. Must be a positive number.

        Returns:
            Credit card payment processed successfully.
        `,
  submit_credit_limit_increase_request_7392: `Submit a credit limit increase request for a customer's credit card.

        Args:
            credit_card_account_id (string): The credit card account ID to request increase for
            user_id (string): The customer's unique identifier in the system
            requested_increase_amount (integer): The dollar amount by which to increase the credit limit (e.g., 2500 for $2,500)

        Returns:
            Credit limit increase request submitted successfully.
        `,
  get_credit_limit_increase_history_4829: `Retrieve the credit limit increase request history for a specific credit card account. Returns all previous CLI requests including dates, amounts, and statuses.

        Args:
            credit_card_account_id (string): The credit card account ID to check for CLI history

        Returns:
            Credit limit increase history retrieved.
        `,
  get_payment_history_6183: `Retrieve payment history for a credit card account.

        Args:
            credit_card_account_id (string): The credit card account ID to check payment history for
            months (integer): Number of months of payment history to retrieve

        Returns:
            Payment history retrieved.
        `,
  approve_credit_limit_increase_5847: `Approve and apply a credit limit increase for a customer's credit card.

        Args:
            credit_card_account_id (string): The credit card account ID
            user_id (string): The customer's unique identifier in the system
            new_credit_limit (integer): The new total credit limit in dollars (e.g., 7500 for $7,500)

        Returns:
            Credit limit increase approved and applied successfully.
        `,
  deny_credit_limit_increase_5848: `Deny a credit limit increase request for a customer's credit card.

        Args:
            credit_card_account_id (string): The credit card account ID
            user_id (string): The customer's unique identifier in the system
            denial_reason (string): The reason for denying the request. Must be one of: 'insufficient_account_age', 'cooldown_period_active', 'pending_disputes', 'pending_replacement_card', 'past_due_balance', 'high_utilization', 'insufficient_payment_history', 'requested_amount_exceeds_limit', 'other'

        Returns:
            Credit limit increase request denied.
        `,
} as const;
