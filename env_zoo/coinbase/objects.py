"""Coinbase's API objects as output models, and how stored rows become them. App (v2) objects carry money as
{"amount", "currency"}; Advanced Trade (v3) objects as {"value", "currency"}, as the two APIs do."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from pydantic import BaseModel, Field

from envfactory_gym import Database

from .access import usable_from
from .rules import buy_limits, currency, dec, fee_tier, fmt, volume_30d


class Money(BaseModel):
    """An amount in the App API's shape."""

    amount: str
    currency: str


class Balance(BaseModel):
    """An amount in the Advanced Trade API's shape."""

    value: str
    currency: str


class FeeTier(BaseModel):
    """The Advanced Trade pricing tier of the last 30 days' volume."""

    pricing_tier: str
    usd_from: str
    usd_to: str
    taker_fee_rate: str
    maker_fee_rate: str


class UserObject(BaseModel):
    """The signed-in user, their security settings and their Advanced Trade transaction summary."""

    id: str
    name: str
    email: str
    native_currency: str
    country: str
    time_zone: str
    two_factor_method: str
    address_allowlisting: bool = Field(description="when on, crypto can be sent only to address-book entries")
    send_2fa_threshold: Money = Field(description="sends worth this much or more wait for approval in the app")
    advanced_trade_volume_30d: str = Field(description="USD")
    fee_tier: FeeTier
    created_at: str


class NetworkObject(BaseModel):
    """A network a crypto can be sent and received on."""

    name: str
    display_name: str
    network_fee: str = Field(description="charged on top of every send, in the wallet's currency")
    min_send: str


class AccountObject(BaseModel):
    """A wallet: one per currency."""

    uuid: str
    name: str
    currency: str
    available_balance: Balance
    hold: Balance = Field(description="reserved by open orders and sends awaiting approval")
    type: str
    default: bool
    active: bool
    ready: bool
    networks: list[NetworkObject] = Field(description="for crypto wallets; the first is the default")
    created_at: str


class ProductObject(BaseModel):
    """A trading pair with its current price, book and trading rules."""

    product_id: str
    base_currency_id: str
    quote_currency_id: str
    base_name: str
    price: str
    best_bid: str
    best_ask: str
    price_percentage_change_24h: str
    volume_24h: str
    base_increment: str
    quote_increment: str
    price_increment: str
    base_min_size: str
    base_max_size: str
    quote_min_size: str
    quote_max_size: str
    status: str
    trading_disabled: bool
    cancel_only: bool = Field(description="open orders can be cancelled; no new orders")
    limit_only: bool = Field(description="only limit orders; no market orders or simple trades")
    post_only: bool
    product_type: str


class LimitObject(BaseModel):
    """One buy limit of a payment method over a rolling window."""

    period_in_days: int
    total: Money
    remaining: Money


class PaymentMethodObject(BaseModel):
    """A linked bank account, card, PayPal account or the USD wallet."""

    id: str
    type: str
    name: str
    currency: str
    primary_buy: bool
    primary_sell: bool
    allow_buy: bool
    allow_sell: bool
    instant_buy: bool
    instant_sell: bool
    verified: bool
    buy_limits: list[LimitObject]
    created_at: str


class TradeObject(BaseModel):
    """A simple buy or sell (or its quote, which has no id and is not saved)."""

    id: str | None
    resource: str = Field(description="buy or sell")
    status: str = Field(description="quote, completed or canceled")
    committed: bool
    account_id: str
    payment_method_id: str
    amount: Money = Field(description="crypto bought or sold")
    unit_price: Money
    subtotal: Money
    fee: Money
    total: Money = Field(description="buys: what you pay; sells: what you receive")
    transaction_id: str | None
    payout_at: str | None
    created_at: str | None


class ConvertTradeObject(BaseModel):
    """A conversion between two wallets: a quote (TRADE_STATUS_CREATED) until committed."""

    trade_id: str
    status: str
    source_account_id: str
    target_account_id: str
    user_entered_amount: Balance = Field(description="debited from the source wallet")
    fee: Balance
    subtotal: Balance
    exchange_rate: Balance = Field(description="target units per source unit")
    target_amount: Balance = Field(description="credited to the target wallet")
    expired: bool
    created_at: str
    expires_at: str


class OrderObject(BaseModel):
    """An Advanced Trade order."""

    order_id: str
    client_order_id: str
    product_id: str
    side: str
    order_type: str
    time_in_force: str
    status: str = Field(description="OPEN, FILLED, CANCELLED, EXPIRED or FAILED")
    base_size: str | None
    quote_size: str | None
    limit_price: str | None
    post_only: bool
    end_time: str | None
    filled_size: str
    filled_value: str
    average_filled_price: str
    total_fees: str
    number_of_fills: int
    completion_percentage: str
    outstanding_hold_amount: str
    created_time: str
    last_fill_time: str | None


class FillObject(BaseModel):
    """One execution of an order."""

    entry_id: str
    trade_id: str
    order_id: str
    product_id: str
    side: str
    price: str
    size: str
    commission: str
    liquidity_indicator: str
    trade_time: str


class CancelResult(BaseModel):
    """The outcome of cancelling one order."""

    order_id: str
    success: bool
    failure_reason: str | None = Field(
        description="UNKNOWN_CANCEL_ORDER, ORDER_IS_FULLY_FILLED, INVALID_CANCEL_REQUEST or DUPLICATE_CANCEL_REQUEST"
    )


class NetworkInfo(BaseModel):
    """The on-chain side of a send or receive."""

    name: str
    status: str
    hash: str | None
    transaction_fee: Money | None
    transaction_amount: Money | None


class TransactionObject(BaseModel):
    """One entry in a wallet's history."""

    id: str
    type: str
    status: str
    amount: Money = Field(description="signed; a send's amount includes its network fee")
    native_amount: Money
    description: str | None
    awaiting_2fa: bool = Field(description="a send waiting for approval in the Coinbase app")
    network: NetworkInfo | None
    to_address: str | None
    from_address: str | None
    resource_id: str | None = Field(description="the buy, sell, conversion or order it belongs to")
    created_at: str


class AddressObject(BaseModel):
    """A receive address of a wallet."""

    id: str
    account_id: str
    address: str
    name: str | None
    network: str
    created_at: str


class AddressBookEntryObject(BaseModel):
    """A saved external address; with allowlisting on, usable from 48 hours after it was added."""

    id: str
    currency: str
    network: str
    address: str
    label: str
    allowlist_status: str = Field(description="active, or pending during the 48 hours after it was added")
    usable_from: str
    added_at: str


def user_object(db: Database, row: dict[str, Any]) -> UserObject:
    """The user with their fee tier computed from the last 30 days of fills."""
    volume = volume_30d(db)
    name, low, high, taker, maker = fee_tier(volume)
    tier = FeeTier(
        pricing_tier=name, usd_from=str(low), usd_to=str(high), taker_fee_rate=str(taker), maker_fee_rate=str(maker)
    )
    return UserObject(
        **{k: row[k] for k in UserObject.model_fields if k in row and k != "send_2fa_threshold"},
        send_2fa_threshold=Money(amount=row["send_2fa_threshold"], currency=row["native_currency"]),
        advanced_trade_volume_30d=f"{volume:f}",
        fee_tier=tier,
    )


def account_object(db: Database, row: dict[str, Any]) -> AccountObject:
    """A wallet with its balances and networks."""
    code = row["currency"]
    nets = [NetworkObject(**{k: n[k] for k in NetworkObject.model_fields}) for n in currency(db, code)["networks"]]
    return AccountObject(
        **{k: row[k] for k in AccountObject.model_fields if k not in ("available_balance", "hold", "networks")},
        available_balance=Balance(value=row["available_balance"], currency=code),
        hold=Balance(value=row["hold"], currency=code),
        networks=nets,
    )


def product_object(db: Database, row: dict[str, Any]) -> ProductObject:
    """A product with its base currency's name."""
    return ProductObject(**row, base_name=currency(db, row["base_currency_id"])["name"])


def payment_method_object(db: Database, row: dict[str, Any]) -> PaymentMethodObject:
    """A payment method with its remaining buy limits."""
    limits = [
        LimitObject(
            period_in_days=days,
            total=Money(amount=fmt(limit, 2), currency="USD"),
            remaining=Money(amount=fmt(remaining, 2), currency="USD"),
        )
        for days, limit, remaining in buy_limits(db, row)
    ]
    return PaymentMethodObject(**{k: row[k] for k in PaymentMethodObject.model_fields if k in row}, buy_limits=limits)


def trade_object(row: dict[str, Any], committed: bool = True) -> TradeObject:
    """A buy or sell row (or an unsaved quote shaped like one)."""
    usd = {k: Money(amount=row[k], currency="USD") for k in ("unit_price", "subtotal", "fee", "total")}
    return TradeObject(
        id=row["id"],
        resource=row["resource"],
        status=row["status"],
        committed=committed,
        account_id=row["account_id"],
        payment_method_id=row["payment_method_id"],
        amount=Money(amount=row["amount"], currency=row["currency"]),
        transaction_id=row["transaction_id"],
        payout_at=row["payout_at"],
        created_at=row["created_at"],
        **usd,
    )


def convert_object(row: dict[str, Any], expired: bool) -> ConvertTradeObject:
    """A conversion row."""
    source, target = row["source_currency"], row["target_currency"]
    return ConvertTradeObject(
        trade_id=row["id"],
        status=row["status"],
        source_account_id=row["source_account_id"],
        target_account_id=row["target_account_id"],
        user_entered_amount=Balance(value=row["user_entered_amount"], currency=source),
        fee=Balance(value=row["fee"], currency=source),
        subtotal=Balance(value=row["subtotal"], currency=source),
        exchange_rate=Balance(value=row["exchange_rate"], currency=target),
        target_amount=Balance(value=row["target_amount"], currency=target),
        expired=expired,
        created_at=row["created_at"],
        expires_at=row["expires_at"],
    )


def order_object(row: dict[str, Any]) -> OrderObject:
    """An order with its completion percentage."""
    wanted = dec(row["base_size"]) if row["base_size"] else dec(row["filled_size"])
    done = Decimal(100) if row["status"] == "FILLED" or not wanted else dec(row["filled_size"]) / wanted * 100
    return OrderObject(**row, completion_percentage=fmt(done, 2))


def transaction_object(row: dict[str, Any]) -> TransactionObject:
    """A history entry with its money and network details shaped as in the App API."""
    code = row["currency"]
    net = row["network"]
    network = None
    if net:
        network = NetworkInfo(
            name=net["name"],
            status=net["status"],
            hash=net.get("hash"),
            transaction_fee=Money(amount=net["transaction_fee"], currency=code) if net.get("transaction_fee") else None,
            transaction_amount=Money(amount=net["transaction_amount"], currency=code)
            if net.get("transaction_amount")
            else None,
        )
    return TransactionObject(
        id=row["id"],
        type=row["type"],
        status=row["status"],
        amount=Money(amount=row["amount"], currency=code),
        native_amount=Money(amount=row["native_amount"], currency="USD"),
        description=row["description"],
        awaiting_2fa=row["awaiting_2fa"],
        network=network,
        to_address=row["to_address"],
        from_address=row["from_address"],
        resource_id=row["resource_id"],
        created_at=row["created_at"],
    )


def address_book_object(db: Database, row: dict[str, Any]) -> AddressBookEntryObject:
    """An address-book entry with its allowlist status now."""
    usable = usable_from(db, row)
    return AddressBookEntryObject(
        **row, allowlist_status="active" if db.now_iso() >= usable else "pending", usable_from=usable
    )
