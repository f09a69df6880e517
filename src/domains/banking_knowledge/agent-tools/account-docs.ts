/**
 * The exact `__doc__` of tau2's bank-account tools (CPython 3.12 keeps the source indentation):
 * data the unlock output is parsed from.
 */
export const ACCOUNT_DOCS = {
  open_bank_account_4821: `Open a new bank account for a customer.

        Args:
            user_id (string): The customer's unique identifier in the system
            account_type (string): Type of account to open. Must be one of: 'checking' (personal checking), 'savings' (personal savings), 'business_checking', 'business_savings'
            account_class (string): The full official account class name

        Returns:
            Bank account opened successfully.
        `,
  close_bank_account_7392: `Close a customer's bank account (checking or savings).

        Args:
            account_id (string): The ID of the bank account to close
            reason (string, optional): The reason for closing the account
            waive_early_closure_fee (boolean, optional): Whether to waive early closure fees

        Returns:
            Bank account closed successfully.
        `,
  get_all_user_accounts_by_user_id_3847: `Retrieve all accounts (checking, savings, credit cards) for a customer.

        Args:
            user_id (string): The customer's unique identifier in the system

        Returns:
            User accounts retrieved successfully.
        `,
  transfer_funds_between_bank_accounts_7291: `Transfer funds from one bank account to another.

        Args:
            source_account_id (string): The account ID to transfer funds from
            destination_account_id (string): The account ID to transfer funds to
            amount (number): The amount to transfer in USD

        Returns:
            Funds transferred successfully.
        `,
  apply_checking_account_credit_5829: `Apply a credit to a customer's checking account.

        Args:
            account_id (string): The checking account ID to credit
            amount (number): The positive dollar amount to credit (must be greater than 0)
            credit_type (string): The type of credit: 'rebate_credit' for missing rebates, 'fee_refund' for incorrect fee charges

        Returns:
            Credit applied to checking account successfully.
        `,
  apply_savings_account_credit_6831: `Apply a credit to a customer's savings account for interest corrections, fee refunds, or goodwill adjustments.

        Args:
            account_id (string): The savings account ID to credit
            amount (number): The positive dollar amount to credit (must be greater than 0)
            credit_type (string): The type of credit: 'interest_correction' for APY/interest calculation errors, 'fee_refund' for incorrect fee charges, 'goodwill_credit' for customer service gestures

        Returns:
            Credit applied to savings account successfully.
        `,
  submit_interest_discrepancy_report_7294: `Submit a report for interest calculation discrepancies to the backend team for investigation. Use this when the interest credited to a customer's account does not match expected APY calculations.

        Args:
            account_id (string): The savings account ID with the discrepancy
            user_id (string): The customer's unique identifier
            expected_apy (number): The APY percentage the customer should have received (e.g., 2.775 for 2.775%)
            actual_apy (number): The APY percentage that was actually applied (e.g., 2.5 for 2.5%)
            amount_difference (number): The dollar amount difference between expected and actual interest credited

        Returns:
            Interest discrepancy report submitted successfully. Backend team will investigate.
        `,
  get_bank_account_transactions_9173: `Retrieve the transaction history for a bank account.

        Transactions are returned in reverse chronological order (most recent
        first).

        Args:
            account_id (string): The bank account ID to retrieve transactions for

        Returns:
            Bank account transactions retrieved successfully.
        `,
};
