"""Gusto (the Gusto payroll API): companies, employees and jobs, contractors, payrolls, time off."""
