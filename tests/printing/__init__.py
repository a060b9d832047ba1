"""The PDFs the site prints (tournaments/printing/): wall sheets, ceremony, súmulas."""
