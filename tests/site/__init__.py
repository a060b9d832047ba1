"""The site as a whole: production settings, headers, logins, accessibility, CSP, the demo, serving, the rules' index."""
