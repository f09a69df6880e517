/** Retail tools on users and the catalogue: the one user WRITE tool and the READ lookups. */
import { lowerMethod } from "../../py/builtins.ts";
import { pyDumps } from "../../py/json.ts";
import { type PyDict, pyEquals, setKey } from "../../py/value.ts";
import { model, type ToolDef, ToolError } from "../toolkit.ts";
import { userAddress } from "./construct.ts";
import { ADDRESS_PARAMS } from "./order-tools.ts";
import { arg, getItem, getOrder, getProduct, getUser, type Product, type User } from "./records.ts";

export const modifyUserAddress: ToolDef = {
  name: "modify_user_address",
  kind: "write",
  params: [{ name: "user_id" }, ...ADDRESS_PARAMS],
  run(db, args) {
    const { key } = getUser(db, arg(args, "user_id"));
    const address = userAddress(args);
    const user = db.mut<User>("users", key);
    user.address = address;
    return model(user);
  },
};

/** Users in dict order, for the linear searches tau2 does. */
function* users(db: Parameters<ToolDef["run"]>[0]): Generator<[string, User]> {
  for (const id of db.keys("users")) yield [id, db.get("users", id) as unknown as User];
}

export const findUserIdByEmail: ToolDef = {
  name: "find_user_id_by_email",
  kind: "read",
  params: [{ name: "email" }],
  run(db, args) {
    for (const [id, user] of users(db)) {
      // Case-insensitive; the stored email is lowered before the argument (order of AttributeErrors).
      const stored = lowerMethod(user.email);
      if (stored === lowerMethod(arg(args, "email"))) return id;
    }
    throw new ToolError("User not found");
  },
};

export const findUserIdByNameZip: ToolDef = {
  name: "find_user_id_by_name_zip",
  kind: "read",
  params: [{ name: "first_name" }, { name: "last_name" }, { name: "zip" }],
  run(db, args) {
    for (const [id, user] of users(db)) {
      // Names case-insensitive (short-circuit `and`), zip compared exactly.
      if (
        lowerMethod(user.name.first_name) === lowerMethod(arg(args, "first_name")) &&
        lowerMethod(user.name.last_name) === lowerMethod(arg(args, "last_name")) &&
        pyEquals(user.address.zip, arg(args, "zip"))
      ) {
        return id;
      }
    }
    throw new ToolError("User not found");
  },
};

export const getOrderDetails: ToolDef = {
  name: "get_order_details",
  kind: "read",
  params: [{ name: "order_id" }],
  run: (db, args) => model(getOrder(db, arg(args, "order_id")).record),
};

export const getProductDetails: ToolDef = {
  name: "get_product_details",
  kind: "read",
  params: [{ name: "product_id" }],
  run: (db, args) => model(getProduct(db, arg(args, "product_id")).record),
};

export const getItemDetails: ToolDef = {
  name: "get_item_details",
  kind: "read",
  params: [{ name: "item_id" }],
  run: (db, args) => model(getItem(db, arg(args, "item_id"))),
};

export const getUserDetails: ToolDef = {
  name: "get_user_details",
  kind: "read",
  params: [{ name: "user_id" }],
  run: (db, args) => model(getUser(db, arg(args, "user_id")).record),
};

export const listAllProductTypes: ToolDef = {
  name: "list_all_product_types",
  kind: "read",
  params: [],
  run(db) {
    const byName: PyDict = {};
    for (const id of db.keys("products")) {
      const product = db.get("products", id) as unknown as Product;
      setKey(byName, product.name, product.product_id);
    }
    // tau2 returns its own `json.dumps(..., sort_keys=True)` text, used verbatim.
    return pyDumps(byName, true);
  },
};
