"""Twilio Programmable Messaging and Phone Numbers: subaccounts, numbers, Messaging Services, A2P 10DLC, messages."""
