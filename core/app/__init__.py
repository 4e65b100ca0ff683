"""The application frame: one Settings, the errors a user can cause, logging and apologies, and who is acting.

Pages reach it through `core.app.service`; core modules import the modules directly."""
