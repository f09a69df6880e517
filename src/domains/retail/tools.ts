/** The retail agent toolkit (`RetailTools`); retail has no user tools. */

import { calculate, transferToHumanAgents } from "../shared-tools.ts";
import { makeToolkit, type Toolkit } from "../toolkit.ts";
import {
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  returnDeliveredOrderItems,
} from "./order-tools.ts";
import {
  findUserIdByEmail,
  findUserIdByNameZip,
  getItemDetails,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
  modifyUserAddress,
} from "./user-tools.ts";

// tau2's `think` tool is commented out in RetailTools, so it is not a tool here either.
export const retailAgentTools: Toolkit = makeToolkit("RetailTools", [
  calculate,
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  findUserIdByNameZip,
  findUserIdByEmail,
  getOrderDetails,
  getProductDetails,
  getItemDetails,
  getUserDetails,
  listAllProductTypes,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
  transferToHumanAgents,
]);
