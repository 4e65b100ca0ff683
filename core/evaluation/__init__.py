"""Evaluation of prompt versions and models: suites of teacher requests played through the chat, evaluators with
German reasons, stored runs and their comparison; the request-understanding suite; retrieval recall."""
