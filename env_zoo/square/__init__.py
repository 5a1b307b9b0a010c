"""Square: the seller API of a coffee roaster with cafés: catalog, orders, payments, refunds, customers and loyalty."""
