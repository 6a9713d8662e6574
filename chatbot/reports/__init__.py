"""Weekly reports: building them from the analyses of one ISO week, and rendering them as documents."""
