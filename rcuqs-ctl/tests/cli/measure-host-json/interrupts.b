           CPU0       CPU1       
  0:         10          5   IO-APIC   2-edge      timer
NMI:          0          0   Non-maskable interrupts
LOC:       1900        700   Local timer interrupts
RES:        300        130   Rescheduling interrupts
CAL:         90         30   Function call interrupts
ERR:          9
MIS:          0
