"""An MCP server with a large SaaS API surface, for the tool search tests: 30 resources of a
billing, CRM and project suite, ten operations each (300 tools), every one with its own
description and input schema, written with the SDK's low-level Server over stdio.

Every call answers with what it was asked; ``create_invoice`` really computes: it totals its
line items (quantity times unit price, less the discount) and answers with the invoice's
number and total, which a test can check.

    python -m tests.mcp_servers.saas_server
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

# resource (singular, plural) -> what it is, and its fields: name -> (JSON type, description)
RESOURCES: dict[tuple[str, str], tuple[str, dict[str, tuple[str, str]]]] = {
    ("customer", "customers"): ("a paying account of the billing system", {
        "email": ("string", "Primary billing e-mail address"),
        "name": ("string", "Legal or display name of the customer"),
        "currency": ("string", "ISO 4217 currency code the customer is billed in"),
        "tax_id": ("string", "VAT or sales tax registration number")}),
    ("invoice", "invoices"): ("a bill sent to a customer", {
        "customer_id": ("string", "The customer billed"),
        "currency": ("string", "ISO 4217 currency code"),
        "due_days": ("integer", "Days until payment is due"),
        "memo": ("string", "Free text printed on the invoice")}),
    ("subscription", "subscriptions"): ("a recurring plan a customer pays for", {
        "customer_id": ("string", "The subscribing customer"),
        "price_id": ("string", "The recurring price"),
        "quantity": ("integer", "Seats or units"),
        "trial_days": ("integer", "Length of the free trial")}),
    ("payment", "payments"): ("money received from a customer", {
        "amount": ("number", "Amount in the currency's major unit"),
        "currency": ("string", "ISO 4217 currency code"),
        "method": ("string", "card, sepa_debit, ach or wire"),
        "invoice_id": ("string", "The invoice the payment settles")}),
    ("refund", "refunds"): ("money returned to a customer", {
        "payment_id": ("string", "The payment refunded"),
        "amount": ("number", "Amount refunded"),
        "reason": ("string", "duplicate, fraudulent or requested_by_customer")}),
    ("product", "products"): ("something the company sells", {
        "name": ("string", "Product name shown to customers"),
        "sku": ("string", "Stock keeping unit"),
        "active": ("boolean", "Whether it can be sold")}),
    ("price", "prices"): ("what a product costs, once or per period", {
        "product_id": ("string", "The product priced"),
        "unit_amount": ("number", "Price of one unit"),
        "interval": ("string", "month, year, or none for one-off prices")}),
    ("coupon", "coupons"): ("a discount customers can redeem", {
        "percent_off": ("number", "Discount in percent"),
        "duration": ("string", "once, repeating or forever"),
        "max_redemptions": ("integer", "How many times it can be used")}),
    ("order", "orders"): ("a purchase of physical goods", {
        "customer_id": ("string", "The buyer"),
        "shipping_address": ("string", "Where the goods go"),
        "items": ("array", "SKUs and quantities")}),
    ("shipment", "shipments"): ("a parcel on its way to a customer", {
        "order_id": ("string", "The order shipped"),
        "carrier": ("string", "dhl, ups, fedex or usps"),
        "tracking_number": ("string", "The carrier's tracking number")}),
    ("ticket", "tickets"): ("a support request from a customer", {
        "subject": ("string", "One-line summary of the problem"),
        "priority": ("string", "low, normal, high or urgent"),
        "requester_email": ("string", "Who asked for help")}),
    ("contact", "contacts"): ("a person in the CRM", {
        "first_name": ("string", "Given name"),
        "last_name": ("string", "Family name"),
        "phone": ("string", "Phone number in E.164 form"),
        "company_id": ("string", "The company the person works for")}),
    ("deal", "deals"): ("a sales opportunity in the pipeline", {
        "title": ("string", "Name of the opportunity"),
        "stage": ("string", "lead, qualified, proposal, won or lost"),
        "value": ("number", "Expected revenue")}),
    ("company", "companies"): ("an organisation in the CRM", {
        "domain": ("string", "The company's web domain"),
        "industry": ("string", "Industry the company works in"),
        "employees": ("integer", "Head count")}),
    ("user", "users"): ("a member of the workspace", {
        "email": ("string", "Login e-mail address"),
        "role": ("string", "owner, admin, member or guest"),
        "locale": ("string", "Language and region, e.g. de-DE")}),
    ("team", "teams"): ("a group of users", {
        "name": ("string", "Team name"),
        "lead_user_id": ("string", "Who leads the team")}),
    ("project", "projects"): ("a body of work with tasks", {
        "name": ("string", "Project name"),
        "owner_id": ("string", "The responsible user"),
        "deadline": ("string", "Due date, YYYY-MM-DD")}),
    ("task", "tasks"): ("a unit of work in a project", {
        "project_id": ("string", "The project"),
        "title": ("string", "What is to be done"),
        "assignee_id": ("string", "Who does it"),
        "estimate_hours": ("number", "Estimated effort")}),
    ("milestone", "milestones"): ("a dated goal of a project", {
        "project_id": ("string", "The project"),
        "due_date": ("string", "YYYY-MM-DD")}),
    ("webhook", "webhooks"): ("an HTTPS endpoint notified of events", {
        "url": ("string", "The endpoint URL"),
        "events": ("array", "Event types delivered, e.g. invoice.paid")}),
    ("api_key", "api_keys"): ("a credential for the REST API", {
        "label": ("string", "What the key is for"),
        "scopes": ("array", "Permissions granted")}),
    ("audit_event", "audit_events"): ("a security-relevant action recorded in the log", {
        "actor_id": ("string", "Who acted"),
        "action": ("string", "What was done")}),
    ("report", "reports"): ("a saved analytics query", {
        "metric": ("string", "mrr, churn, arpu or ltv"),
        "period": ("string", "day, week, month or quarter")}),
    ("file", "files"): ("an uploaded document", {
        "filename": ("string", "Name with extension"),
        "folder_id": ("string", "Where it is stored"),
        "size_bytes": ("integer", "Size of the content")}),
    ("folder", "folders"): ("a container of files", {
        "name": ("string", "Folder name"),
        "parent_id": ("string", "The enclosing folder")}),
    ("comment", "comments"): ("a remark on a task, ticket or deal", {
        "subject_id": ("string", "What the comment is about"),
        "body": ("string", "Markdown text")}),
    ("notification", "notifications"): ("a message shown to a user", {
        "user_id": ("string", "The recipient"),
        "channel": ("string", "in_app, email or push")}),
    ("campaign", "campaigns"): ("a marketing e-mail campaign", {
        "name": ("string", "Internal name"),
        "segment_id": ("string", "The audience"),
        "send_at": ("string", "ISO 8601 time to send")}),
    ("segment", "segments"): ("a filtered audience of contacts", {
        "name": ("string", "Segment name"),
        "filter": ("string", "Filter expression over contact fields")}),
    ("calendar_event", "calendar_events"): ("a meeting on a user's calendar", {
        "title": ("string", "Meeting title"),
        "start": ("string", "ISO 8601 start time"),
        "attendees": ("array", "E-mail addresses invited")}),
}

OPERATIONS = ("list", "get", "create", "update", "delete", "search", "archive", "restore",
              "export", "count")


def _property(kind: str, description: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": kind, "description": description}
    if kind == "array":
        schema["items"] = {"type": "string"}
    return schema


def _tool(operation: str, singular: str, plural: str, what: str,
          fields: dict[str, tuple[str, str]]) -> types.Tool:
    ident = {f"{singular}_id": {"type": "string", "description": f"The {singular.replace('_', ' ')}'s id"}}
    props = {name: _property(kind, text) for name, (kind, text) in fields.items()}
    paging = {"limit": {"type": "integer", "description": "At most this many (1-100)"},
              "cursor": {"type": "string", "description": "Where the previous page ended"}}
    label = singular.replace("_", " ")
    name, description, properties, required = {
        "list": (f"list_{plural}", f"List {plural.replace('_', ' ')}, newest first; {label}: {what}.",
                 paging, []),
        "get": (f"get_{singular}", f"Retrieve one {label} ({what}) by id.", ident, [f"{singular}_id"]),
        "create": (f"create_{singular}", f"Create a {label}: {what}.", props, list(fields)[:1]),
        "update": (f"update_{singular}", f"Change fields of an existing {label}.",
                   {**ident, **props}, [f"{singular}_id"]),
        "delete": (f"delete_{singular}", f"Delete a {label} permanently.", ident, [f"{singular}_id"]),
        "search": (f"search_{plural}", f"Full-text search over {plural.replace('_', ' ')} by "
                   f"{', '.join(fields)}.",
                   {"query": {"type": "string", "description": "Words to match"}, **paging},
                   ["query"]),
        "archive": (f"archive_{singular}", f"Archive a {label}: hidden from lists, kept for "
                    "reporting.", ident, [f"{singular}_id"]),
        "restore": (f"restore_{singular}", f"Bring an archived {label} back.", ident,
                    [f"{singular}_id"]),
        "export": (f"export_{plural}", f"Export {plural.replace('_', ' ')} as CSV or JSON lines.",
                   {"format": {"type": "string", "enum": ["csv", "jsonl"],
                               "description": "The file format"},
                    "since": {"type": "string", "description": "Only those changed since this date"}},
                   ["format"]),
        "count": (f"count_{plural}", f"Count {plural.replace('_', ' ')} matching a filter.",
                  {"filter": {"type": "string", "description": "Filter expression"}}, []),
    }[operation]
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return types.Tool(name=name, description=description, input_schema=schema)


def _invoice_tool(base: types.Tool) -> types.Tool:
    """``create_invoice`` takes line items and a discount, and totals them."""
    schema = dict(base.input_schema)
    schema["properties"] = {**schema["properties"],
                            "line_items": {"type": "array", "description": "What is billed",
                                           "items": {"type": "object", "properties": {
                                               "description": {"type": "string"},
                                               "quantity": {"type": "number"},
                                               "unit_price": {"type": "number"}},
                                               "required": ["quantity", "unit_price"]}},
                            "discount_percent": {"type": "number",
                                                 "description": "Discount on the total"}}
    schema["required"] = ["customer_id", "line_items"]
    return types.Tool(name=base.name, description=base.description + " Totals the line items "
                      "(quantity times unit price, less the discount) and numbers the invoice.",
                      input_schema=schema)


def all_tools() -> list[types.Tool]:
    tools: list[types.Tool] = []
    for (singular, plural), (what, fields) in RESOURCES.items():
        for operation in OPERATIONS:
            tool = _tool(operation, singular, plural, what, fields)
            tools.append(_invoice_tool(tool) if tool.name == "create_invoice" else tool)
    return tools


def invoice_total(arguments: dict[str, Any]) -> float:
    items = arguments.get("line_items") or []
    total = sum(float(i.get("quantity", 0)) * float(i.get("unit_price", 0)) for i in items)
    return round(total * (1 - float(arguments.get("discount_percent") or 0) / 100), 2)


def build() -> Server[Any]:
    tools = all_tools()
    names = {t.name for t in tools}
    invoices: list[str] = []

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        if params.name not in names:
            return types.CallToolResult(content=[types.TextContent(
                type="text", text=f"unknown tool {params.name}")], is_error=True)
        if params.name == "create_invoice":
            invoices.append(f"INV-{len(invoices) + 1:04d}")
            currency = arguments.get("currency") or "EUR"
            text = (f"invoice {invoices[-1]} created for {arguments.get('customer_id')}: "
                    f"total {invoice_total(arguments):.2f} {currency}")
        else:
            text = f"{params.name} done: {json.dumps(arguments, sort_keys=True)}"
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    return Server("saas", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


async def _serve() -> None:
    server = build()
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    asyncio.run(_serve())
