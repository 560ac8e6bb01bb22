"""The Discord application: the client (wiring), kit/ (what every feature uses) and one package per feature.
Thin: an interaction in, one action of the application, a reply out."""
