"""
Oracle for account-oracle.test.ts: runs tau2's own banking KnowledgeTools (tools.py, db_query.py,
utils.py, data_model.py at a2c0247, unchanged, read from the git mirror) on the edge cases below and
writes their exact results to account-oracle.json and the tools' declared metadata to
account-oracle-tools.json (for calls on the shared db.json only a
digest of the text, which quotes its records). Only tau2's decorators/base class and DATA_DIR are
stubbed. Needs python3 with pydantic 2. Run: python3 test/domains/banking_knowledge/account-oracle.py,
then `npx biome format --write test/domains/banking_knowledge/account-oracle*.json`.
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MIRROR = "/work/.mirror/sierra-research+tau2-bench/repo"
REAL_DB = os.path.join(HERE, "../../../../shared/tau2-data/domains/banking_knowledge/db.json")

STUB_TOOLKIT = '# Minimal stand-ins for the decorators and base class the banking tools import.\nfrom enum import Enum\nTOOL_ATTR = "__tool__"; TOOL_TYPE_ATTR = "__tool_type__"; MUTATES_STATE_ATTR = "__mutates_state__"; DISCOVERABLE_ATTR = "__discoverable__"\nclass ToolType(str, Enum):\n    READ = "read"; WRITE = "write"; THINK = "think"; GENERIC = "generic"\ndef _mark(tool_type, mutates_state, disc):\n    if mutates_state is None:\n        mutates_state = tool_type == ToolType.WRITE\n    def deco(f):\n        setattr(f, TOOL_ATTR, True); setattr(f, TOOL_TYPE_ATTR, tool_type); setattr(f, MUTATES_STATE_ATTR, mutates_state)\n        if disc: setattr(f, DISCOVERABLE_ATTR, True)\n        return f\n    return deco\ndef is_tool(tool_type=ToolType.READ, mutates_state=None): return _mark(tool_type, mutates_state, False)\ndef is_discoverable_tool(tool_type=ToolType.READ, mutates_state=None): return _mark(tool_type, mutates_state, True)\nclass ToolKitBase:\n    def __init__(self, db=None): self.db = db\n'
STUB_DB = "from pydantic import BaseModel, ConfigDict\nclass DB(BaseModel):\n    model_config = ConfigDict(extra='forbid')\n"
STUB_UTILS = "from pathlib import Path\nDATA_DIR = Path('/nonexistent')\n"


def sandbox() -> str:
    root = tempfile.mkdtemp()
    pkg = os.path.join(root, "tau2/domains/banking_knowledge")
    os.makedirs(pkg)
    os.makedirs(os.path.join(root, "tau2/environment"))
    os.makedirs(os.path.join(root, "tau2/utils"))
    for d in ["tau2", "tau2/domains", "tau2/domains/banking_knowledge", "tau2/environment", "tau2/utils"]:
        open(os.path.join(root, d, "__init__.py"), "w").close()
    for f in ["tools", "db_query", "utils", "data_model"]:
        src = subprocess.check_output(["git", "-C", MIRROR, "show", f"HEAD:src/tau2/domains/banking_knowledge/{f}.py"])
        open(os.path.join(pkg, f + ".py"), "wb").write(src)
    open(os.path.join(root, "tau2/environment/toolkit.py"), "w").write(STUB_TOOLKIT)
    open(os.path.join(root, "tau2/environment/db.py"), "w").write(STUB_DB)
    open(os.path.join(root, "tau2/utils/utils.py"), "w").write(STUB_UTILS)
    return root


# ---- the cases: (tool, arguments) calls on tau2's test fixture or the real db.json ----
J = json.dumps
cases = []
def case(name, calls, setup=(), db="fixture", floats=True):
    cases.append({"name": name, "db": db, "floats": floats,
                  "setup": [[t, i, f, J(v)] for (t, i, f, v) in setup],
                  "calls": [[n, J(a) if not isinstance(a, str) else a] for (n, a) in calls]})

def acct(id, **kw):
    base = {"account_id": id, "user_id": "user_001", "class": "checking", "level": "Blue Account",
            "current_holdings": "0.00", "status": "OPEN", "date_opened": "01/15/2024"}
    base.update(kw); return ("accounts", id, None, base)

OPEN = "open_bank_account_4821"; CLOSE = "close_bank_account_7392"
case("open savings for user_002", [(OPEN, {"user_id": "user_002", "account_type": "savings", "account_class": "High-Yield Savings"})])
case("open savings without checking", [(OPEN, {"user_id": "user_x", "account_type": "savings", "account_class": "S"})])
case("open savings with young checking", [(OPEN, {"user_id": "user_y", "account_type": "savings", "account_class": "S"})],
     setup=[acct("chk_y", user_id="user_y", date_opened="11/05/2025")])
case("open savings with 14-day checking", [(OPEN, {"user_id": "user_y", "account_type": "savings", "account_class": "S"})],
     setup=[acct("chk_y", user_id="user_y", date_opened="10/31/2025")])
case("open savings with future-dated checking", [(OPEN, {"user_id": "user_y", "account_type": "savings", "account_class": "S"})],
     setup=[acct("chk_y", user_id="user_y", date_opened="12/31/2025")])
case("open savings with bad date", [(OPEN, {"user_id": "user_y", "account_type": "savings", "account_class": "S"})],
     setup=[acct("chk_y", user_id="user_y", date_opened="02/30/2024")])
case("open savings with None date", [(OPEN, {"user_id": "user_y", "account_type": "savings", "account_class": "S"})],
     setup=[acct("chk_y", user_id="user_y", date_opened=None)])
case("open business checking with a closed account", [(OPEN, {"user_id": "user_001", "account_type": "business_checking", "account_class": "Biz"})])
case("open business checking then savings", [
    (OPEN, {"user_id": "user_002", "account_type": "business_checking", "account_class": "Business Checking"}),
    (OPEN, {"user_id": "user_002", "account_type": "business_savings", "account_class": "Business Savings"}),
    (OPEN, {"user_id": "user_002", "account_type": "business_checking", "account_class": "Business Checking"})])
case("open business savings with old business checking", [(OPEN, {"user_id": "user_b", "account_type": "business_savings", "account_class": "BS"})],
     setup=[acct("bchk", user_id="user_b", account_type="business_checking", current_holdings="$1,000.00")])
case("open business savings with negative balance", [(OPEN, {"user_id": "user_b", "account_type": "business_savings", "account_class": "BS"})],
     setup=[acct("bchk", user_id="user_b", account_type="business_checking"), acct("neg", user_id="user_b", current_holdings="-5")])
case("open business savings with unparsable balance", [(OPEN, {"user_id": "user_b", "account_type": "business_savings", "account_class": "BS"})],
     setup=[acct("bchk", user_id="user_b", account_type="business_checking", current_holdings="abc")])
case("open with float user id", [(OPEN, {"user_id": 25, "account_type": "checking", "account_class": 3.5})])
case("open with missing class", [(OPEN, {"user_id": "user_001", "account_type": "checking", "account_class": ""})])
case("open with list type", [(OPEN, {"user_id": "user_001", "account_type": ["checking"], "account_class": "X"})])
case("open with unknown keyword", [(OPEN, {"user_id": "user_001", "account_type": "checking", "account_class": "X", "extra": 1})])
case("open with missing argument", [(OPEN, {"user_id": "user_001"})])
case("open savings on real db", [(OPEN, {"user_id": "125", "account_type": "savings", "account_class": "Gold Account"})], db="real")

case("close nonzero balance", [(CLOSE, {"account_id": "chk_001"})])
case("close real", [(CLOSE, {"account_id": "01"}), (CLOSE, {"account_id": "58d57780cc15e32d"}), (CLOSE, {"account_id": "chk_rp65a7b3c4"})], db="real")
case("close with early fee covered", [(CLOSE, {"account_id": "young", "reason": "moving"})],
     setup=[acct("young", date_opened="11/01/2025", current_holdings="25.00")])
case("close with early fee uncovered", [(CLOSE, {"account_id": "young"})],
     setup=[acct("young", date_opened="11/01/2025", current_holdings="10.00")])
case("close with early fee and leftover", [(CLOSE, {"account_id": "young"})],
     setup=[acct("young", date_opened="11/01/2025", current_holdings="$30.50")])
case("close waived", [(CLOSE, {"account_id": "young", "waive_early_closure_fee": True})],
     setup=[acct("young", date_opened="11/01/2025", current_holdings="0")])
case("close waived by a truthy string", [(CLOSE, {"account_id": "young", "waive_early_closure_fee": "no", "reason": 1})],
     setup=[acct("young", date_opened="11/01/2025", current_holdings="0", account_type="checking", account_class="Blue")])
case("close savings tier", [(CLOSE, {"account_id": "sav_y"})],
     setup=[acct("sav_y", **{"class": "savings"}, level="Silver Account", date_opened="10/01/2025", current_holdings="35")])
case("close saving class has no tier", [(CLOSE, {"account_id": "sav_y"})],
     setup=[acct("sav_y", **{"class": "saving"}, level="Silver Account", date_opened="10/01/2025", current_holdings="35")])
case("close with bad date", [(CLOSE, {"account_id": "young"})],
     setup=[acct("young", date_opened="13/45/2025", current_holdings="0.0")])
case("close with int date", [(CLOSE, {"account_id": "young"})],
     setup=[acct("young", date_opened=20250101, current_holdings="0.0")])
case("close twice", [(CLOSE, {"account_id": "z"}), (CLOSE, {"account_id": "z"})], setup=[acct("z")])
case("close list id", [(CLOSE, {"account_id": ["chk_001"]})])
case("close missing", [(CLOSE, {"account_id": ""}), (CLOSE, {"account_id": None})])

T = "transfer_funds_between_bank_accounts_7291"
case("transfer twice", [(T, {"source_account_id": "chk_001", "destination_account_id": "chk_002", "amount": 1000}),
                        (T, {"source_account_id": "chk_001", "destination_account_id": "chk_002", "amount": "250.505"})])
case("transfer odd amounts", [(T, {"source_account_id": "chk_001", "destination_account_id": "sav_001", "amount": "abc"}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "sav_001", "amount": None}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "sav_001", "amount": [1]}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "sav_001", "amount": True}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "chk_001", "amount": 5}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "chk_closed", "amount": 5}),
                              (T, {"source_account_id": "chk_closed", "destination_account_id": "chk_001", "amount": 5}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "sav_001", "amount": " 1_000.5 "}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "sav_001", "amount": "nan"}),
                              (T, {"source_account_id": "chk_001", "destination_account_id": "sav_001", "amount": -3})])

CC = "apply_checking_account_credit_5829"; SC = "apply_savings_account_credit_6831"
case("checking credit twice", [(CC, {"account_id": "chk_001", "amount": "12.345", "credit_type": "rebate_credit"}),
                               (CC, {"account_id": "chk_001", "amount": 12.345, "credit_type": "rebate_credit"}),
                               (CC, {"account_id": "chk_002", "amount": 0.005, "credit_type": "fee_refund"})])
case("checking credit odd inputs", [(CC, {"account_id": "chk_001", "amount": "x", "credit_type": "fee_refund"}),
                                    (CC, {"account_id": "chk_001", "amount": 5, "credit_type": ["fee_refund"]}),
                                    (CC, {"account_id": "chk_001", "amount": 5, "credit_type": ""}),
                                    (CC, {"account_id": "chk_closed", "amount": 5, "credit_type": "fee_refund"}),
                                    (CC, {"account_id": "nullclass", "amount": 5, "credit_type": "fee_refund"})],
     setup=[acct("nullclass", **{"class": None})])
case("checking credit upper class", [(CC, {"account_id": "up", "amount": 5, "credit_type": "fee_refund"})],
     setup=[acct("up", **{"class": "CHECKING"}, status="ACTIVE", current_holdings="$1,234.50")])
case("savings credit real db", [(SC, {"account_id": "02", "amount": 0.1, "credit_type": "goodwill_credit"}),
                                (SC, {"account_id": "02", "amount": 2, "credit_type": "fee_refund"})], db="real")
case("savings credit fixture", [(SC, {"account_id": "sav_001", "amount": 1e-7, "credit_type": "interest_correction"}),
                                (SC, {"account_id": "sav_001", "amount": 5, "credit_type": "bonus"})])

IR = "submit_interest_discrepancy_report_7294"
case("interest report", [(IR, {"account_id": "sav_001", "user_id": "user_001", "expected_apy": 2.775, "actual_apy": 2.5, "amount_difference": 13.456}),
                         (IR, {"account_id": "sav_001", "user_id": "user_001", "expected_apy": "3", "actual_apy": 0.1, "amount_difference": 0}),
                         (IR, {"account_id": "sav_001", "user_id": "user_001", "expected_apy": "abc", "actual_apy": 0.1, "amount_difference": 0}),
                         (IR, {"account_id": "sav_001", "user_id": "user_001", "expected_apy": None, "actual_apy": 0.1, "amount_difference": 0}),
                         (IR, {"account_id": "nolevel", "user_id": "user_002", "expected_apy": 1, "actual_apy": 1, "amount_difference": -1})],
     setup=[("accounts", "nolevel", None, {"account_id": "nolevel"})])

GA = "get_all_user_accounts_by_user_id_3847"
case("all accounts", [(GA, {"user_id": "user_001"}), (GA, {"user_id": "nobody"}), (GA, {"user_id": 'a"b'}),
                      (GA, {"user_id": 5}), (GA, {"user_id": ""})])
case("all accounts real", [(GA, {"user_id": "lj82d4f1a9"}), (GA, {"user_id": "123"})], db="real")

GT = "get_bank_account_transactions_9173"
def txn(id, date, **kw):
    r = {"transaction_id": id, "account_id": "chk_001", "date": date, "description": "T", "amount": -1.5, "type": "x", "status": "posted"}
    r.update(kw); return ("bank_account_transaction_history", id, None, r)
case("transactions sorted", [(GT, {"account_id": "chk_001"}), (GT, {"account_id": "chk_002"}), (GT, {"account_id": "nope"}), (GT, {"account_id": ["x"]})],
     setup=[txn("a", "11/01/2025"), txn("b", None), txn("c", "11/01/2025 00:00:01"), txn("d", "1/2/2025"), txn("e", "bad"),
            txn("f", "11/01/2025", meta={"k": [1, True, None]}), ("bank_account_transaction_history", "g", None, {"account_id": "chk_001"})])
case("transactions real", [(GT, {"account_id": "chk_ar72c5d8e3_1"}), (GT, {"account_id": "chk_lj82d4f1a9"})], db="real")

OD = "order_debit_card_5739"
def order(**kw):
    a = {"account_id": "chk_002", "user_id": "user_002", "delivery_option": "STANDARD", "delivery_fee": 0, "card_design": "CLASSIC",
         "design_fee": 0, "shipping_address": "1923 Oak Park Boulevard"}
    a.update(kw); return a
case("order standard", [(OD, order())])
case("order with fees", [(OD, order(account_id="chk_001", user_id="user_001", delivery_option="rush", delivery_fee=25, card_design="premium", design_fee=10.5, excess_replacement_fee=15))],
     setup=[("debit_cards", "dbc_002", "status", "CLOSED"), ("debit_cards", "dbc_002", "closure_reason", "fraud_suspected")])
case("order twice", [(OD, order()), (OD, order())])
case("order odd fees", [(OD, order(delivery_fee="abc")), (OD, order(design_fee=[1])), (OD, order(delivery_fee=None)),
                        (OD, order(excess_replacement_fee="abc")), (OD, order(delivery_option=5)), ])
case("order excess fee string", [(OD, order(excess_replacement_fee="abc", delivery_fee=1.25))])
case("order checks", [(OD, order(delivery_option="TELEPORT")), (OD, order(card_design="gold")), (OD, order(account_id="sav_001")),
                      (OD, order(account_id="chk_closed")), (OD, order(user_id="user_001")), (OD, order(delivery_fee=150, design_fee=60)),
                      (OD, order(account_id="chk_001", user_id="user_001")), (OD, order(account_id="nope")), (OD, order(shipping_address=""))])
case("order dollar holdings", [(OD, order())], setup=[("accounts", "chk_002", "current_holdings", "$5,000.00")])
case("order comma holdings", [(OD, order(delivery_fee=2))], setup=[("accounts", "chk_002", "current_holdings", "5,000.00")])
case("order after closed lost card", [(OD, order(account_id="chk_001", user_id="user_001"))],
     setup=[("debit_cards", "dbc_002", "status", "CLOSED"), ("debit_cards", "dbc_002", "closure_reason", "lost")])
case("order after closed damaged card", [(OD, order(account_id="chk_001", user_id="user_001"))],
     setup=[("debit_cards", "dbc_002", "status", "CLOSED"), ("debit_cards", "dbc_002", "closure_reason", "damaged")])
case("order new account unknown user", [(OD, order(account_id="chk_n", user_id="ghost"))],
     setup=[acct("chk_n", user_id="ghost", current_holdings=100)])
case("order real", [(OD, order(account_id="05", user_id="224959b99e", delivery_option="EXPEDITED", delivery_fee=15))], db="real")

A1 = "activate_debit_card_8291"; A2 = "activate_debit_card_8292"; A3 = "activate_debit_card_8293"
def act(**kw):
    a = {"card_id": "dbc_001", "last_4_digits": "4321", "expiration_date": "11/27", "cvv": "123", "pin": "5823"}
    a.update(kw); return a
case("activate new", [(A1, act())])
case("activate replacement with active card", [(A2, act(card_id="dbc_003", last_4_digits="1111"))],
     setup=[("debit_cards", "dbc_x", None, {"card_id": "dbc_x", "account_id": "chk_002", "status": "ACTIVE"})])
case("activate fraud replacement", [(A2, act(card_id="dbc_003", last_4_digits="1111"))],
     setup=[("debit_cards", "dbc_003", "issue_reason", "fraud")])
case("activate reissued", [(A3, act(card_id="dbc_expired", last_4_digits="5555"))])
case("activate reissued damaged", [(A3, act(card_id="dbc_expired", last_4_digits="5555"))],
     setup=[("debit_cards", "dbc_expired", "issue_reason", "bank_reissue"), ("debit_cards", "dbc_002", "status", "FROZEN")])
case("activate checks", [(A1, act(pin=5823)), (A1, act(cvv="")), (A1, act(cvv="12a")), (A1, act(last_4_digits="43210")),
                         (A3, act()), (A2, act(card_id="dbc_weird")), (A1, act(card_id="dbc_frozen", last_4_digits="9999")),
                         (A1, act(cvv=123)), (A1, act(pin="1111")), (A1, act(card_id=["x"])), (A1, act(card_id="dbc_none"))],
     setup=[("debit_cards", "dbc_weird", None, {"card_id": "dbc_weird", "status": "PENDING", "issue_reason": "weird"}),
            ("debit_cards", "dbc_none", None, {"card_id": "dbc_none", "status": "PENDING", "issue_reason": None})])
case("activate unicode pins", [(A1, act(pin="٥٨٢٣")), (A1, act(card_id="dbc_b", pin="²³⁴⁵", last_4_digits="0000"))],
     setup=[("debit_cards", "dbc_b", None, {"card_id": "dbc_b", "status": "PENDING", "last_4_digits": "0000"})])
case("activate closed account", [(A1, act())], setup=[("accounts", "chk_001", "status", "CLOSED")])
case("activate card without account", [(A1, act(card_id="dbc_na", last_4_digits="1212"))],
     setup=[("debit_cards", "dbc_na", None, {"card_id": "dbc_na", "status": "PENDING", "last_4_digits": "1212"}),
            ("debit_cards", "dbc_nb", None, {"card_id": "dbc_nb", "status": "ACTIVE"})])

CD = "close_debit_card_4721"; FZ = "freeze_debit_card_3892"; UF = "unfreeze_debit_card_3893"; CF = "clear_debit_card_fraud_alert_4892"
case("close card reasons", [(CD, {"card_id": "dbc_002", "reason": "Fraud_Suspected"}), (CD, {"card_id": "dbc_002", "reason": "lost"}),
                            (CD, {"card_id": "dbc_001", "reason": "stolen"}), (CD, {"card_id": "dbc_frozen", "reason": "damaged"}),
                            (CD, {"card_id": "dbc_003", "reason": 5}), (CD, {"card_id": "dbc_003", "reason": ""}),
                            (CD, {"card_id": "dbc_expired", "reason": "account_closing"})])
case("freeze and unfreeze", [(FZ, {"card_id": "dbc_002"}), (FZ, {"card_id": "dbc_002"}), (FZ, {"card_id": "dbc_001"}),
                             (UF, {"card_id": "dbc_002"}), (UF, {"card_id": "dbc_002"}), (UF, {"card_id": "dbc_001"}),
                             (FZ, {"card_id": ""}), (UF, {"card_id": 3}), (FZ, {"card_id": {"a": 1}})])
case("unfreeze on closed account", [(UF, {"card_id": "dbc_frozen"})], setup=[("accounts", "chk_001", "status", "FROZEN")])
case("clear alerts", [(CF, {"card_id": "dbc_002", "reason": "velocity_clear"}), (CF, {"card_id": "dbc_v", "reason": "velocity_clear"}),
                      (CF, {"card_id": "dbc_002", "reason": "customer_verified"}), (CF, {"card_id": "dbc_bank", "reason": "customer_verified"}),
                      (CF, {"card_id": "dbc_cust", "reason": "customer_verified"}), (CF, {"card_id": "dbc_002", "reason": 1}),
                      (CF, {"card_id": "dbc_002", "reason": ""})],
     setup=[("debit_cards", "dbc_v", None, {"card_id": "dbc_v", "velocity_blocked": 1}),
            ("debit_cards", "dbc_bank", None, {"card_id": "dbc_bank", "fraud_alert_active": True, "alert_source": "bank_initiated"}),
            ("debit_cards", "dbc_cust", None, {"card_id": "dbc_cust", "fraud_alert_active": "yes"})])

RP = "reset_debit_card_pin_6284"; CP = "change_debit_card_pin_6285"
case("pin tools", [(RP, {"card_id": "dbc_002", "last_4_digits": "8765", "new_pin": "5823"}),
                   (RP, {"card_id": "dbc_002", "last_4_digits": 8765, "new_pin": "5823"}),
                   (RP, {"card_id": "dbc_001", "last_4_digits": "4321", "new_pin": "5823"}),
                   (RP, {"card_id": "dbc_002", "last_4_digits": "876", "new_pin": "5823"}),
                   (RP, {"card_id": "dbc_002", "last_4_digits": "8765", "new_pin": "58a3"}),
                   (CP, {"card_id": "dbc_002", "current_pin": "5823", "new_pin": "5823"}),
                   (CP, {"card_id": "dbc_002", "current_pin": "12", "new_pin": "5823"}),
                   (CP, {"card_id": "dbc_001", "current_pin": "1234", "new_pin": "5823"}),
                   (CP, {"card_id": "dbc_002", "current_pin": "1234", "new_pin": "3210"}),
                   (CP, {"card_id": "dbc_002", "current_pin": "1234", "new_pin": "7391"}),
                   (CP, {"card_id": "dbc_002", "current_pin": 1234, "new_pin": "7391"}),
                   (CP, {"card_id": "dbc_002", "current_pin": "", "new_pin": "7391"})])

GD = "get_debit_cards_by_account_id_7823"
case("debit cards listing", [(GD, {"account_id": "chk_001"}), (GD, {"account_id": "chk_002"}), (GD, {"account_id": "sav_001"}),
                             (GD, {"account_id": "bare"}), (GD, {"account_id": "nullclass"}), (GD, {"account_id": ""}), (GD, {"account_id": "nope"})],
     setup=[("debit_cards", "dbc_c", None, {"account_id": "chk_002", "created_date": "12/01/2025", "card_id": "other", "last_4_digits": "7", "card_number_last_4": "x", "n": 1.0, "u": "é☃"}),
            ("debit_cards", "dbc_d", None, {"account_id": "chk_002", "issue_date": "", "date_issued": None, "z": [], "y": {}}),
            acct("bare", **{"class": "Business_Checking"}), acct("nullclass", **{"class": None})])
case("debit cards real", [(GD, {"account_id": "chk_lj82d4f1a9"}), (GD, {"account_id": "03"}), (GD, {"account_id": "biz_chk_b5e8f2a1c9"})], db="real")

LI = "request_temporary_debit_card_limit_increase_8374"
def li(**kw):
    a = {"card_id": "dbc_002", "limit_type": "atm", "new_limit": 700}
    a.update(kw); return a
case("limit default atm", [(LI, li()), (LI, li(new_limit=760))])
case("limit checks", [(LI, li(new_limit=800)), (LI, li(new_limit=400)), (LI, li(new_limit="abc")), (LI, li(new_limit=700.5)),
                      (LI, li(new_limit="1e3")), (LI, li(new_limit=-5)), (LI, li(new_limit=None)), (LI, li(limit_type="ATM")),
                      (LI, li(limit_type="purchase")), (LI, li(new_limit=1e300)), (LI, li(new_limit="inf")), (LI, li(card_id="dbc_001")),
                      (LI, li(card_id="")), (LI, li(limit_type=""))])
case("limit float current", [(LI, li(new_limit=750)), (LI, li(new_limit=751))], setup=[("debit_cards", "dbc_002", "daily_atm_limit", 500.5)])
case("limit float current exceeded", [(LI, li(new_limit=751))], setup=[("debit_cards", "dbc_002", "daily_atm_limit", 500.5)])
case("limit float current not higher", [(LI, li(new_limit=500))], setup=[("debit_cards", "dbc_002", "daily_atm_limit", 500.5)])
case("limit purchase", [(LI, li(limit_type="purchase", new_limit=7000))], setup=[("debit_cards", "dbc_002", "daily_purchase_limit", 5000)])
case("limit string current", [(LI, li())], setup=[("debit_cards", "dbc_002", "daily_atm_limit", "500")])
case("limit teen", [(LI, li())], setup=[("accounts", "chk_001", "level", "Light Green Account")])
case("limit unknown level", [(LI, li())], setup=[("accounts", "chk_001", "level", "Navy Blue")])
case("limit young account", [(LI, li())], setup=[("accounts", "chk_001", "date_opened", "10/01/2025")])
case("limit bad date", [(LI, li())], setup=[("accounts", "chk_001", "date_opened", "10/01/25")])
case("limit closed account", [(LI, li())], setup=[("accounts", "chk_001", "status", "CLOSED")])
case("limit card without account", [(LI, li(card_id="dbc_na"))], setup=[("debit_cards", "dbc_na", None, {"status": "ACTIVE"})])
case("limit int call", [(LI, li(new_limit=600))], setup=[("debit_cards", "dbc_002", "daily_atm_limit", 500)], floats=False)
case("limit real", [(LI, {"card_id": "dbc_lj82d4f1a9_bluest", "limit_type": "atm", "new_limit": 2000}), (LI, {"card_id": "dbc_kj93a7b2e1_lightgreen", "limit_type": "atm", "new_limit": 200}), (LI, {"card_id": "dbc_538bfb9cba", "limit_type": "purchase", "new_limit": 200})], db="real")


def main() -> None:
    sys.path.insert(0, sandbox())
    from tau2.domains.banking_knowledge.data_model import TransactionalDB
    from tau2.domains.banking_knowledge.tools import KnowledgeTools

    helpers = open(os.path.join(HERE, "account-helpers.ts")).read()
    fixture = json.loads(re.search(r"export const FIXTURE = `(.*?)`;", helpers, re.S).group(1))
    real = json.load(open(REAL_DB))

    def dbhash(db):
        return hashlib.sha256(json.dumps(db.model_dump(), sort_keys=True, default=str).encode()).hexdigest()

    for case in cases:
        db = TransactionalDB.model_validate(json.loads(json.dumps(fixture if case["db"] == "fixture" else real)))
        for table, rid, field, value_json in case["setup"]:
            value = json.loads(value_json)
            tab = getattr(db, table).data
            if field is None:
                tab[rid] = value
            else:
                tab[rid][field] = value
        tools = KnowledgeTools(db)
        results = []
        for name, args_json in case["calls"]:
            args = json.loads(args_json, parse_int=float) if case["floats"] else json.loads(args_json)
            try:
                content, kind = getattr(tools, name)(**args), "ok"
            except TypeError as e:
                content, kind = f"Error: Invalid arguments: {e}", "typeerror"
            except Exception as e:
                content, kind = f"Error: {e}", "raised"
            result = {"kind": kind, "content": content, "hash": dbhash(db)}
            if case["db"] == "real":
                # Outputs on the shared db.json quote its records: keep only their digest in the repo.
                result["content"] = None
                result["content_sha256"] = hashlib.sha256(content.encode()).hexdigest()
            results.append(result)
        case["expected"] = results
    with open(os.path.join(HERE, "account-oracle.json"), "w") as f:
        json.dump(cases, f, indent=1, ensure_ascii=False)
        f.write("\n")
    # The tools' metadata as tau2 declares it: docstring, ToolType, mutates_state, parameters.
    import inspect
    from tau2.environment.toolkit import DISCOVERABLE_ATTR, MUTATES_STATE_ATTR, TOOL_TYPE_ATTR

    names = [n for n in vars(KnowledgeTools) if getattr(getattr(KnowledgeTools, n), DISCOVERABLE_ATTR, False)]
    first, last = names.index("open_bank_account_4821"), names.index("request_temporary_debit_card_limit_increase_8374")
    meta = []
    for n in names[first : last + 1]:
        fn = getattr(KnowledgeTools, n)
        params = [
            {"name": p.name, **({} if p.default is inspect.Parameter.empty else {"default": p.default})}
            for p in list(inspect.signature(fn).parameters.values())[1:]
        ]
        meta.append({"name": n, "kind": getattr(fn, TOOL_TYPE_ATTR).value,
                     "mutates": getattr(fn, MUTATES_STATE_ATTR), "params": params, "docstring": fn.__doc__})
    with open(os.path.join(HERE, "account-oracle-tools.json"), "w") as f:
        json.dump(meta, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(cases)} cases and {len(meta)} tools written")


if __name__ == "__main__":
    main()
