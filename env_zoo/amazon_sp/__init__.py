"""Amazon Selling Partner API (SP-API): listings and their issues, orders and shipment confirmation, FBA
inventory and inbound shipments, returns and refunds."""
